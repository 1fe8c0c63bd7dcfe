/** Words the site uses in more than one place. */
export const rateLimitedMessage = (seconds: number): string =>
  `We're getting a lot of visits. Try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`;

/** A wait as people say it: "40 seconds", "1 minute", "52 minutes". */
export const waitInWords = (seconds: number): string => {
  const minutes = Math.ceil(seconds / 60);
  return seconds < 60
    ? `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`
    : `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
};
