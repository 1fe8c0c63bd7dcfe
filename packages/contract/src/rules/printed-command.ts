/**
 * The commands the product prints for a person to run (`pnpm start`'s hints, the API's first
 * start): one rule for all of them, so that each runs as printed. The API (main.ts) and the root
 * scripts (scripts/run-stack.mjs) print them.
 */

/** DATA_DIR's default: the embedded database, its photos and the dev mailbox, in the repository. */
export const DATA_DIR_DEFAULT = '.data';
/** MAIL_DIR's default: the dev mailbox, inside DATA_DIR. */
export const MAIL_DIR_DEFAULT = 'mail';

/** A value as one shell word: pasted into a POSIX shell, it stays one argument. */
export const shellWord = (value: string): string =>
  /^[\w./:@%+=-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;

/** What the process that prints a command was given, of what the data commands read. */
export type TCommandSettings = {
  /** DATA_DIR as given: unset, empty or the default are not repeated. */
  DATA_DIR?: string | undefined;
  /** DATA_DIR's absolute path: what a printed command names, wherever it is pasted. */
  dataDir: string;
  /** MAIL_DIR as given (relative to DATA_DIR, or absolute). */
  MAIL_DIR?: string | undefined;
  /** Set: the command needs it too. Its value may hold a password, so it is named, not printed. */
  DATABASE_URL?: string | undefined;
};

const isGiven = (value: string | undefined, fallback: string): value is string =>
  value !== undefined && value.trim() !== '' && value !== fallback;

/**
 * `command` as a person runs it: in a new shell at the repository's root, where the variables
 * given to this process are gone. Each variable the data commands (`pnpm keys`, `accounts`,
 * `mail`, `db:*`) read and that is not at its default comes first, as a shell word; DATABASE_URL
 * is named in words instead.
 */
export const printedCommand = (command: string, settings: TCommandSettings): string => {
  const variables = [
    ...(isGiven(settings.DATA_DIR, DATA_DIR_DEFAULT)
      ? [`DATA_DIR=${shellWord(settings.dataDir)}`]
      : []),
    ...(isGiven(settings.MAIL_DIR, MAIL_DIR_DEFAULT)
      ? [`MAIL_DIR=${shellWord(settings.MAIL_DIR)}`]
      : []),
  ];
  const line = [...variables, command].join(' ');
  return settings.DATABASE_URL ? `${line} (with this DATABASE_URL set)` : line;
};
