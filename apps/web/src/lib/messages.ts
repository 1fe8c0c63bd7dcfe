/** Words the site uses in more than one place. */
export const rateLimitedMessage = (seconds: number): string =>
  `We're getting a lot of visits. Try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`;
