import { runAccountsCommand } from './accounts-command';
import { describeError, type TCliIo, UsageError } from './cli-support';
import { runEnvironmentCommand, runMigrateCommand, runSeedCommand } from './db-command';
import { runKeysCommand } from './keys-command';
import { runMailCommand } from './mail-command';

const COMMANDS: Record<string, (args: string[], io: TCliIo) => Promise<number>> = {
  keys: runKeysCommand,
  accounts: runAccountsCommand,
  migrate: runMigrateCommand,
  seed: runSeedCommand,
  environment: runEnvironmentCommand,
  mail: runMailCommand,
};

/**
 * Runs one command and returns its exit code: 0 done, 1 failed, 2 bad usage. Failures are one
 * line on standard error, never a stack trace.
 */
export const runCli = async (argv: string[], io: TCliIo): Promise<number> => {
  const [command, ...args] = argv;
  const run = command ? COMMANDS[command] : undefined;
  if (!run) {
    io.err(
      `error: unknown command "${command ?? ''}" (keys, accounts, migrate, seed, environment or mail)`,
    );
    return 2;
  }
  try {
    return await run(args, io);
  } catch (error) {
    io.err(`error: ${describeError(error)}`);
    return error instanceof UsageError ? 2 : 1;
  }
};
