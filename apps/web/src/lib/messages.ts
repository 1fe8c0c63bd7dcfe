/** Words the site uses in more than one place. */
export const rateLimitedMessage = (seconds: number): string =>
  `We're getting a lot of visits. Try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`;

/** A wait as people say it: "40 seconds", "1 minute", "52 minutes", "3 hours". */
export const waitInWords = (seconds: number): string => {
  const minutes = Math.ceil(seconds / 60);
  const hours = Math.ceil(seconds / 3600);
  if (seconds < 60) {
    return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  }
  // Past an hour and a half, minutes are more precise than anyone waits by.
  return minutes <= 90 ? `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}` : `${hours} hours`;
};
