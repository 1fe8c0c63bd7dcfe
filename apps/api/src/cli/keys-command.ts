import type { TApiKeySummary } from '@pets/store/api-keys.repository';
import {
  ApiKeysRepository,
  MAX_ROLL_OVERLAP_SECONDS,
  ZNewApiKeyInput,
} from '@pets/store/api-keys.repository';
import { PLAN_LIMITS } from '../api-keys/api-key-plans';
import { DEMO_KEY_NAME } from '../api-keys/demo-key';
import {
  loadCliConfig,
  parseCommandArgs,
  type TCliIo,
  UsageError,
  withDatabase,
} from './cli-support';

export const KEYS_USAGE = `Manage API keys.

  pnpm keys create --plan <free|pro|business|enterprise> [--name <name>]
                   [--rpm <n> --rpd <n>]   (enterprise only, and required for it)
                   [--mode <live|test>]   (default: live on production, test on staging)
                                     (production takes both: a test key, pets_test_, reads the
                                     store and manages its own webhooks, never changes anything
                                     else; staging takes test keys only)
                   [--role <partner|staff>]   (default: partner)
                   [--read-only]   (a partner key that can only read: no writes)
                   [--first-party]   (the store's own site: partner keys only)
                   [--expires-at <RFC 3339 time, such as 2027-06-30T00:00:00Z>]
                                     (refused from then on; default: never expires)
      Prints the new key alone on the last line of standard output. It is shown only once.
      partner: the animals and its own adoption orders. staff: the store (every order,
      approve and complete, change animals). first-party: the site's key, which may tell
      the API each visitor's address (Pets-Visitor-IP), so that failed sign-ins and the
      key's rate limits count per visitor, not per site. Give it to nothing else.
  pnpm keys list [--json]
      Every key without its secret; ROLE says "first-party" for the site's keys. USED BY marks the keys \`pnpm start\` made: the demo key the
      API printed at its first start ("demo"), the site's own key ("web-site", kept in DATA_DIR)
      and the demo staff key ("demo staff").
  pnpm keys revoke <key id | display start such as pets_live_3xK9>
  pnpm keys roll <key id | display start> [--overlap-hours <0 to 168>]   (default: 24)
      Gives the key a new secret, printed alone on the last line of standard output, shown only
      once. The key keeps its id, and so its orders, webhooks and rate limits. The old secret
      keeps working for the overlap (0: it stops within 5 seconds), then gets 401 "This API key
      was rolled; use its replacement.". Rolling again during an overlap ends the older secret.

Uses DATABASE_URL, or the embedded database in DATA_DIR (whether or not the API is running).`;

const wholeNumber = (flag: string, value: string | undefined): number | undefined => {
  if (value === undefined) {
    return undefined;
  }
  if (!/^\d+$/.test(value)) {
    throw new UsageError(`--${flag} must be a whole number, not "${value}"`);
  }
  return Number(value);
};

/** RFC 3339 with a zone (Z or an offset), as the API writes instants: no local-time guessing. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

const instant = (flag: string, value: string | undefined): Date | undefined => {
  if (value === undefined) {
    return undefined;
  }
  const date = new Date(value);
  if (!RFC3339.test(value) || Number.isNaN(date.getTime())) {
    throw new UsageError(
      `--${flag} must be an RFC 3339 time with its zone, such as 2027-06-30T00:00:00Z, not "${value}"`,
    );
  }
  return date;
};

const DEFAULT_OVERLAP_HOURS = 24;

const MODE_ENVIRONMENT = { live: 'production', test: 'staging' } as const;

const create = async (args: string[], io: TCliIo): Promise<number> => {
  const { values } = parseCommandArgs({
    args,
    options: {
      plan: { type: 'string' },
      name: { type: 'string' },
      rpm: { type: 'string' },
      rpd: { type: 'string' },
      env: { type: 'string' },
      mode: { type: 'string' },
      role: { type: 'string' },
      'read-only': { type: 'boolean' },
      'first-party': { type: 'boolean' },
      'expires-at': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
  });
  if (values.help) {
    io.out(KEYS_USAGE);
    return 0;
  }
  if (!values.plan) {
    throw new UsageError('--plan is required (free, pro, business or enterprise)');
  }
  const rateLimitPerMinute = wholeNumber('rpm', values.rpm);
  const rateLimitPerDay = wholeNumber('rpd', values.rpd);
  const expiresAt = instant('expires-at', values['expires-at']);
  const config = loadCliConfig(io.env);
  if (values.mode !== undefined && values.mode !== 'live' && values.mode !== 'test') {
    throw new UsageError(`--mode must be live or test, not "${values.mode}"`);
  }
  // The stored environment is the key's mode: production = live, staging = test. `--env` is the
  // older spelling of the same choice, still accepted.
  const environment =
    values.mode === undefined ? (values.env ?? config.APP_ENV) : MODE_ENVIRONMENT[values.mode];
  // Checked before the database is opened: a typo costs no database start.
  const parsed = ZNewApiKeyInput.safeParse({
    name: values.name ?? `${values.plan} key`,
    plan: values.plan,
    environment,
    rateLimitPerMinute,
    rateLimitPerDay,
    role: values.role,
    readOnly: values['read-only'] ?? false,
    firstParty: values['first-party'] ?? false,
    expiresAt,
  });
  if (!parsed.success) {
    throw new UsageError(parsed.error.issues[0]?.message ?? 'invalid key settings');
  }
  const input = parsed.data;
  const { key, apiKey } = await withDatabase(
    io,
    ({ pool }) => new ApiKeysRepository(pool).create(input),
    config,
  );
  const expiry = apiKey.expiresAt ? `, expires ${utc(apiKey.expiresAt)} UTC` : '';
  io.err(
    `Created ${apiKey.environment} ${apiKey.plan} ${roleOf(apiKey)} key ${apiKey.id} ("${apiKey.name}", ${apiKey.start}...${expiry}). It is shown only this once:`,
  );
  io.out(key);
  return 0;
};

const utc = (date: Date): string => date.toISOString().slice(0, 19).replace('T', ' ');

/** Whether a key works, as of now: revoked, expired, or still in a roll's overlap. */
const statusOf = (key: TApiKeySummary, now: number): string => {
  if (key.revokedAt) {
    return `revoked ${utc(key.revokedAt)}`;
  }
  if (key.expiresAt && key.expiresAt.getTime() <= now) {
    return `expired ${utc(key.expiresAt)}`;
  }
  const parts = ['active'];
  if (key.expiresAt) {
    parts.push(`until ${utc(key.expiresAt)}`);
  }
  if (key.previousHashExpiresAt && key.previousHashExpiresAt.getTime() > now) {
    parts.push(`(rolled: old secret until ${utc(key.previousHashExpiresAt)})`);
  }
  return parts.join(' ');
};

/** The role as people read it: `partner`, `partner read-only`, `partner first-party` or `staff`. */
const roleOf = (key: TApiKeySummary): string =>
  [key.role, key.readOnly ? 'read-only' : '', key.firstParty ? 'first-party' : '']
    .filter(Boolean)
    .join(' ');

const limitsOf = (key: TApiKeySummary): string => {
  const limits =
    key.rateLimitPerMinute !== null && key.rateLimitPerDay !== null
      ? { perMinute: key.rateLimitPerMinute, perDay: key.rateLimitPerDay }
      : PLAN_LIMITS[key.plan];
  return limits ? `${limits.perMinute}/min ${limits.perDay}/day` : 'not set';
};

/**
 * The names `pnpm start` (scripts/run-stack.mjs) and the API give the keys they make, and what
 * each is for: how `pnpm keys list` tells them apart, since no secret is ever shown again.
 */
const USED_BY: Record<string, string> = {
  [DEMO_KEY_NAME]: 'demo key (printed at first start)',
  'web-site': 'the site (pnpm start)',
  'demo staff': 'demo staff key',
};

const usedBy = (key: TApiKeySummary): string => USED_BY[key.name] ?? '';

const table = (rows: string[][]): string[] => {
  const widths = rows[0]?.map((_, column) =>
    Math.max(...rows.map((row) => row[column]?.length ?? 0)),
  );
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths?.[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
};

const list = async (args: string[], io: TCliIo): Promise<number> => {
  const { values } = parseCommandArgs({
    args,
    options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: false,
  });
  if (values.help) {
    io.out(KEYS_USAGE);
    return 0;
  }
  const keys = await withDatabase(io, ({ pool }) => new ApiKeysRepository(pool).list());
  if (values.json) {
    io.out(
      JSON.stringify(
        keys.map((key) => ({
          ...key,
          id: key.id.toString(),
          limits: limitsOf(key),
          usedBy: usedBy(key) || null,
        })),
        null,
        2,
      ),
    );
    return 0;
  }
  if (keys.length === 0) {
    io.err('No API keys yet. Create one with: pnpm keys create --plan free');
    return 0;
  }
  const now = Date.now();
  const rows = keys.map((key) => [
    key.id.toString(),
    key.name,
    key.plan,
    roleOf(key),
    key.environment,
    key.start,
    limitsOf(key),
    utc(key.createdAt),
    statusOf(key, now),
    key.lastUsedAt ? utc(key.lastUsedAt) : '',
    usedBy(key),
  ]);
  for (const line of table([
    [
      'ID',
      'NAME',
      'PLAN',
      'ROLE',
      'ENV',
      'START',
      'LIMITS',
      'CREATED (UTC)',
      'STATUS',
      'LAST USED',
      'USED BY',
    ],
    ...rows,
  ])) {
    io.out(line);
  }
  return 0;
};

const revoke = async (args: string[], io: TCliIo): Promise<number> => {
  const { values, positionals } = parseCommandArgs({
    args,
    options: { help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  if (values.help) {
    io.out(KEYS_USAGE);
    return 0;
  }
  if (positionals.length !== 1 || !positionals[0]) {
    throw new UsageError('revoke takes one argument: a key id or a display start');
  }
  const reference = positionals[0];
  const { apiKey, wasAlreadyRevoked } = await withDatabase(io, ({ pool }) =>
    new ApiKeysRepository(pool).revoke(reference),
  );
  io.out(
    wasAlreadyRevoked
      ? `Key ${apiKey.id} (${apiKey.start}) was already revoked.`
      : `Revoked key ${apiKey.id} (${apiKey.start}, "${apiKey.name}"). It stops working within 5 seconds.`,
  );
  return 0;
};

const roll = async (args: string[], io: TCliIo): Promise<number> => {
  const { values, positionals } = parseCommandArgs({
    args,
    options: { 'overlap-hours': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  if (values.help) {
    io.out(KEYS_USAGE);
    return 0;
  }
  if (positionals.length !== 1 || !positionals[0]) {
    throw new UsageError('roll takes one argument: a key id or a display start');
  }
  const reference = positionals[0];
  const hours = wholeNumber('overlap-hours', values['overlap-hours']) ?? DEFAULT_OVERLAP_HOURS;
  if (hours * 3600 > MAX_ROLL_OVERLAP_SECONDS) {
    throw new UsageError('--overlap-hours must be from 0 to 168 (7 days)');
  }
  // A key that cannot be rolled (unknown, revoked, expired) is said in one line, exit 1.
  const { key, apiKey } = await withDatabase(io, ({ pool }) =>
    new ApiKeysRepository(pool).roll(reference, hours * 3600),
  );
  const until = apiKey.previousHashExpiresAt
    ? hours === 0
      ? 'The old secret stops working within 5 seconds.'
      : `The old secret keeps working until ${utc(apiKey.previousHashExpiresAt)} UTC.`
    : '';
  io.err(
    `Rolled key ${apiKey.id} ("${apiKey.name}", now ${apiKey.start}...). ${until} The new secret is shown only this once:`,
  );
  io.out(key);
  return 0;
};

export const runKeysCommand = async (args: string[], io: TCliIo): Promise<number> => {
  const [subcommand, ...rest] = args;
  switch (subcommand) {
    case 'create':
      return create(rest, io);
    case 'list':
      return list(rest, io);
    case 'revoke':
      return revoke(rest, io);
    case 'roll':
      return roll(rest, io);
    case 'help':
    case '--help':
    case '-h':
      io.out(KEYS_USAGE);
      return 0;
    case undefined:
      throw new UsageError(
        'say what to do: pnpm keys create, list, revoke or roll (pnpm keys help)',
      );
    default:
      throw new UsageError(`unknown command "keys ${subcommand}" (create, list, revoke or roll)`);
  }
};
