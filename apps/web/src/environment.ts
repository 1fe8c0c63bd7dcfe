import type { z } from 'zod';

/** A bad configuration value, said in one line: `Invalid configuration: NAME what is wrong`. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const configError = (variable: string, message: string): ConfigError =>
  new ConfigError(`Invalid configuration: ${variable} ${message}`);

type TOptions = {
  /** A value of spaces only counts as unset too (an empty value always does). */
  isBlankUnset?: boolean;
};

/**
 * Parses the environment with `schema` (a zod object of variable names), an empty variable
 * counting as unset so that its default applies. The first bad variable is reported as a
 * ConfigError naming it; its value is never echoed, as it may be a secret.
 */
export const parseEnvironment = <TSchema extends z.AnyZodObject>(
  schema: TSchema,
  environment: Record<string, string | undefined>,
  { isBlankUnset = false }: TOptions = {},
): z.infer<TSchema> => {
  const present = Object.fromEntries(
    Object.entries(environment).filter(
      ([, value]) => value !== undefined && (isBlankUnset ? value.trim() : value) !== '',
    ),
  );
  const result = schema.safeParse(present);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw configError(String(issue?.path[0] ?? 'environment'), issue?.message ?? 'is invalid');
  }
  return result.data;
};
