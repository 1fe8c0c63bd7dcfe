import { isEmailAddress } from '@pets/contract/rules';
import type { AccountRole } from '@pets/db';
import {
  AccountsRepository,
  isAccountExists,
  type TAccount,
} from '@pets/store/accounts.repository';
import { recordAudit } from '@pets/store/audit.repository';
import { PasswordHasher, passwordProblem } from '@pets/store/password';
import { SessionsRepository } from '@pets/store/sessions.repository';
import { withTransaction } from '@pets/store/transaction';
import {
  loadCliConfig,
  parseCommandArgs,
  type TCliIo,
  UsageError,
  withDatabase,
} from './cli-support';

export const ACCOUNTS_USAGE = `Manage people's accounts (staff, admins and developers).

  pnpm accounts create --role <admin|staff|developer> --email <email> [--name <name>]
                       [--password <password> | --password-stdin]
                       [--organization <name>]   (developers: their organisation)
      The account is active, its email verified. Without a password option and with standard
      input not a terminal, the password is read from standard input (better than --password,
      which other users of the machine may see in the process list). Prints the account id,
      then the email, one per line; the password is never printed.
  pnpm accounts list [--json]
  pnpm accounts deactivate <email | id>
      The account can no longer sign in, and its sessions end (within 5 seconds everywhere).
  pnpm accounts reactivate <email | id>

Uses DATABASE_URL, or the embedded database in DATA_DIR (whether or not the API is running).`;

const ROLES: readonly AccountRole[] = ['admin', 'staff', 'developer'];
/** Who the audit log says acted. */
const ACTOR = 'pnpm accounts';

const readPassword = async (
  values: { password?: string; 'password-stdin'?: boolean },
  io: TCliIo,
): Promise<string> => {
  if (values.password !== undefined && values['password-stdin']) {
    throw new UsageError('give --password or --password-stdin, not both');
  }
  if (values.password !== undefined) {
    return values.password;
  }
  if (values['password-stdin'] || io.isStdinTty === false) {
    const text = (await io.readStdin?.()) ?? '';
    // One line: the trailing newline of `echo` or a file is not part of the password.
    return text.replace(/\r?\n$/, '');
  }
  throw new UsageError('a password is needed: --password-stdin (recommended) or --password');
};

const create = async (args: string[], io: TCliIo): Promise<number> => {
  const { values } = parseCommandArgs({
    args,
    options: {
      role: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      organization: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
  });
  if (values.help) {
    io.out(ACCOUNTS_USAGE);
    return 0;
  }
  const role = values.role as AccountRole | undefined;
  if (role === undefined || !ROLES.includes(role)) {
    throw new UsageError('--role must be admin, staff or developer');
  }
  const email = values.email?.trim() ?? '';
  if (!isEmailAddress(email)) {
    throw new UsageError('--email must be an email address');
  }
  const name = (values.name ?? email.split('@')[0] ?? email).trim().slice(0, 100);
  if (values.organization !== undefined && role !== 'developer') {
    throw new UsageError('--organization is for developers only');
  }
  const password = await readPassword(values, io);
  const problem = passwordProblem(password, email);
  if (problem !== null) {
    throw new UsageError(problem);
  }
  const config = loadCliConfig(io.env);
  // Argon2 runs here, in the CLI's process, with the API's cost.
  const hasher = new PasswordHasher({ memoryKiB: config.PASSWORD_HASH_MEMORY_KIB, concurrency: 1 });
  const passwordHash = await hasher.hash(password);
  const account = await withDatabase(
    io,
    ({ pool }) =>
      withTransaction(pool, async (client) => {
        const accounts = new AccountsRepository(client);
        const organization =
          role === 'developer'
            ? await accounts.createOrganization(
                (values.organization ?? `${name}'s organisation`).slice(0, 100),
              )
            : null;
        const created = await accounts.create({
          email,
          name,
          role,
          status: 'active',
          passwordHash,
          emailVerifiedAt: new Date(),
          organizationId: organization?.id ?? null,
          invitedById: null,
        });
        await recordAudit(client, {
          actorAccountId: null,
          actorApiKeyId: null,
          actorName: ACTOR,
          action: 'account.created',
          targetType: 'account',
          targetId: created.id,
          details: { role },
        });
        return created;
      }),
    config,
  ).catch((error: unknown) => {
    throw isAccountExists(error)
      ? new UsageError(`an account with ${email} exists already`)
      : error;
  });
  io.err(`Created ${account.role} account ${account.id} ("${account.name}", ${account.email}).`);
  io.out(account.id);
  io.out(account.email);
  return 0;
};

const list = async (args: string[], io: TCliIo): Promise<number> => {
  const { values } = parseCommandArgs({
    args,
    options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: false,
  });
  if (values.help) {
    io.out(ACCOUNTS_USAGE);
    return 0;
  }
  const accounts = await withDatabase(io, ({ pool }) => new AccountsRepository(pool).list());
  if (values.json) {
    io.out(JSON.stringify(accounts, null, 2));
    return 0;
  }
  const rows = [
    ['ID', 'ROLE', 'STATUS', 'EMAIL', 'NAME', 'CREATED'],
    ...accounts.map((account) => [
      account.id,
      account.role,
      account.status,
      account.email,
      account.name,
      account.createdAt.toISOString().slice(0, 10),
    ]),
  ];
  const widths = rows[0]?.map((_, column) =>
    Math.max(...rows.map((row) => row[column]?.length ?? 0)),
  );
  for (const row of rows) {
    io.out(
      row
        .map((cell, column) => cell.padEnd(widths?.[column] ?? 0))
        .join('  ')
        .trimEnd(),
    );
  }
  return 0;
};

const setStatus =
  (status: 'active' | 'deactivated') =>
  async (args: string[], io: TCliIo): Promise<number> => {
    const { values, positionals } = parseCommandArgs({
      args,
      options: { help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
    if (values.help) {
      io.out(ACCOUNTS_USAGE);
      return 0;
    }
    const reference = positionals[0]?.trim();
    if (!reference || positionals.length > 1) {
      throw new UsageError('name one account: its email or its id');
    }
    const { account, ended } = await withDatabase(io, ({ pool }) =>
      withTransaction(pool, async (client) => {
        const accounts = new AccountsRepository(client);
        const found: TAccount | null = reference.includes('@')
          ? await accounts.findByEmail(reference)
          : await accounts.findById(reference);
        if (!found) {
          throw new UsageError(`no account ${reference}`);
        }
        const updated = (await accounts.setStatus(found.id, status)) ?? found;
        const hashes =
          status === 'deactivated'
            ? await new SessionsRepository(client).endAll(found.id, 'deactivated')
            : [];
        await recordAudit(client, {
          actorAccountId: null,
          actorApiKeyId: null,
          actorName: ACTOR,
          action: status === 'active' ? 'account.reactivated' : 'account.deactivated',
          targetType: 'account',
          targetId: found.id,
        });
        return { account: updated, ended: hashes.length };
      }),
    );
    io.err(
      status === 'active'
        ? `Account ${account.id} (${account.email}) may sign in again.`
        : `Account ${account.id} (${account.email}) is deactivated; ${ended} session(s) ended.`,
    );
    return 0;
  };

const SUBCOMMANDS: Record<string, (args: string[], io: TCliIo) => Promise<number>> = {
  create,
  list,
  deactivate: setStatus('deactivated'),
  reactivate: setStatus('active'),
};

export const runAccountsCommand = async (args: string[], io: TCliIo): Promise<number> => {
  const [subcommand, ...rest] = args;
  if (subcommand === undefined || subcommand === 'help' || subcommand === '--help') {
    io.out(ACCOUNTS_USAGE);
    return subcommand === undefined ? 2 : 0;
  }
  const run = SUBCOMMANDS[subcommand];
  if (!run) {
    throw new UsageError(
      `unknown subcommand "${subcommand}" (create, list, deactivate or reactivate)`,
    );
  }
  return run(rest, io);
};
