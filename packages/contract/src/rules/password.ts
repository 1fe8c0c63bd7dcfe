/** A new password's length, in characters: what the API accepts and the site's forms say. */
export const PASSWORD_LENGTH = { min: 10, max: 200 } as const;

/** The rule in words, as the forms' hints and refusals say it. */
export const PASSWORD_LENGTH_WORDS = `${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters`;
