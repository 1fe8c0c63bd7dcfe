import { hashApiKey } from '@pets/store/api-key-format';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess, runPnpmScript, type TCliResult } from '../test/cli-process';
import { createTestDatabase, type TTestDatabase } from '../test/test-database';

/** `pnpm keys` / `pnpm db:*` end to end, as child processes, on a PostgreSQL of their own. */

let database: TTestDatabase;
let env: Record<string, string>;

const cli = (...args: string[]) => runCliProcess(args, env);

const sql = async <T extends object>(text: string, params: unknown[] = []): Promise<T[]> => {
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
};

const lines = (text: string) => text.split('\n').filter((line) => line.length > 0);

/**
 * A command that failed the way people should see it: one line, no stack trace (after the line
 * naming the database it used, when it got that far).
 */
const expectOneLineFailure = (result: TCliResult, code: number, message: RegExp) => {
  expect(result.code).toBe(code);
  expect(result.stdout).toBe('');
  const errorLines = lines(result.stderr).filter((line) => !line.startsWith('Database: '));
  expect(errorLines).toHaveLength(1);
  expect(errorLines[0]).toMatch(/^error: /);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at /);
};

beforeAll(async () => {
  database = await createTestDatabase({ migrated: false });
  env = { DATABASE_URL: database.url, APP_ENV: 'production' };
  // The first run after a change lets tsx transform the sources (cached for the later ones).
  const help = await cli('keys', 'help');
  expect(help.code).toBe(0);
}, 120_000);

afterAll(async () => {
  await database?.drop();
});

describe('pnpm db:migrate and db:seed', () => {
  it('migrates a new database, then finds nothing to do', async () => {
    const first = await cli('migrate');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/applied \d{14}_init(, \d{14}_\w+)*\./);
    const second = await cli('migrate');
    expect(second).toMatchObject({ code: 0 });
    expect(second.stdout).toMatch(/already up to date\.$/m);
  });

  it('seeds once', async () => {
    const first = await cli('seed');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Added 9 categories and \d+ animals\.$/m);
    const second = await cli('seed');
    expect(second.stdout).toBe('Seed data already present: nothing added.\n');
  });
});

describe('pnpm keys', () => {
  let proKey: string;

  it('answers --help on every subcommand, touching no database', async () => {
    for (const subcommand of ['create', 'list', 'revoke', 'roll']) {
      const result = await runCliProcess(['keys', subcommand, '--help'], {
        DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none',
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^ {2}pnpm keys create --plan/m);
      expect(result.stderr).toBe('');
    }
  });

  it('create prints the new key alone on the last line of standard output', async () => {
    const result = await cli('keys', 'create', '--plan', 'pro', '--name', 'Shelter app');
    expect(result.code).toBe(0);
    proKey = lines(result.stdout).at(-1) ?? '';
    expect(proKey).toMatch(/^pets_live_[0-9A-Za-z]{32}$/);
    expect(lines(result.stdout)).toEqual([proKey]);
    expect(result.stderr).toMatch(/Created production pro partner key \d+ \("Shelter app"/);
    expect(result.stderr).not.toContain(proKey);
    const [row] = await sql<{ name: string; plan: string; hash: string }>(
      'SELECT name, plan, hash FROM api_keys WHERE hash = $1',
      [hashApiKey(proKey)],
    );
    expect(row).toEqual({ name: 'Shelter app', plan: 'pro', hash: hashApiKey(proKey) });
  });

  it('create makes enterprise keys with custom limits, and staging keys on request', async () => {
    const result = await cli(
      'keys',
      'create',
      '--plan',
      'enterprise',
      '--rpm',
      '5000',
      '--rpd',
      '1000000',
      '--env',
      'staging',
    );
    expect(result.code).toBe(0);
    const key = lines(result.stdout).at(-1) ?? '';
    expect(key).toMatch(/^pets_test_/);
    const [row] = await sql(
      'SELECT plan, environment, rate_limit_per_minute, rate_limit_per_day FROM api_keys WHERE hash = $1',
      [hashApiKey(key)],
    );
    expect(row).toEqual({
      plan: 'enterprise',
      environment: 'staging',
      rate_limit_per_minute: 5000,
      rate_limit_per_day: 1000000,
    });
  });

  it('list shows every key with its limits, never a key or a hash', async () => {
    const result = await cli('keys', 'list');
    expect(result.code).toBe(0);
    // Which database it used, every time (standard error), its password never.
    expect(result.stderr).toMatch(/^Database: postgres(ql)?:\/\/.*\.$/m);
    const [header, ...rows] = lines(result.stdout);
    expect(header).toMatch(
      /^ID\s+NAME\s+PLAN\s+ROLE\s+ENV\s+START\s+LIMITS\s+CREATED \(UTC\)\s+STATUS\s+LAST USED\s+USED BY$/,
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(
      /^\d+\s+Shelter app\s+pro\s+partner\s+production\s+pets_live_\w{4}\s+300\/min 10000\/day\s+.*active$/,
    );
    expect(rows[1]).toMatch(
      /enterprise\s+partner\s+staging\s+pets_test_\w{4}\s+5000\/min 1000000\/day/,
    );
    expect(result.stdout).not.toContain(proKey.slice(14));
    expect(result.stdout).not.toContain(hashApiKey(proKey));

    const json = JSON.parse((await cli('keys', 'list', '--json')).stdout) as Record<
      string,
      unknown
    >[];
    expect(json.map((key) => key.name)).toEqual(['Shelter app', 'enterprise key']);
    expect(Object.keys(json[0] ?? {})).not.toContain('hash');
  });

  // Five CLI processes in a row (each compiles under tsx): more than the default 30 s on a busy
  // 2-core machine.
  it('revoke takes an id or a display start', { timeout: 90_000 }, async () => {
    const [pro] = await sql<{ id: string; start: string }>(
      'SELECT id, start FROM api_keys WHERE hash = $1',
      [hashApiKey(proKey)],
    );
    const byStart = await cli('keys', 'revoke', pro?.start ?? '');
    expect(byStart.code).toBe(0);
    expect(byStart.stdout).toMatch(
      new RegExp(`^Revoked key ${pro?.id} \\(${pro?.start}, "Shelter app"\\)`),
    );
    const again = await cli('keys', 'revoke', pro?.id ?? '');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`Key ${pro?.id} (${pro?.start}) was already revoked.\n`);

    const created = await cli('keys', 'create', '--plan', 'free');
    const key = lines(created.stdout).at(-1) ?? '';
    const [free] = await sql<{ id: string }>('SELECT id FROM api_keys WHERE hash = $1', [
      hashApiKey(key),
    ]);
    expect((await cli('keys', 'revoke', free?.id ?? '')).code).toBe(0);
    const revoked = await sql<{ revoked: boolean }>(
      'SELECT revoked_at IS NOT NULL AS revoked FROM api_keys ORDER BY id',
    );
    expect(revoked.map((row) => row.revoked)).toEqual([true, false, true]);
    expect((await cli('keys', 'list')).stdout).toMatch(/revoked \d{4}-\d\d-\d\d/);
  });

  it.each([
    [['keys', 'create'], 2, /--plan is required/],
    [
      ['keys', 'create', '--plan', 'gold'],
      2,
      /plan must be one of free, pro, business, enterprise/,
    ],
    [['keys', 'create', '--plan', 'pro', '--rpm', '5', '--rpd', '9'], 2, /enterprise keys only/],
    [['keys', 'create', '--plan', 'enterprise', '--rpm', '100'], 2, /need both custom limits/],
    [
      ['keys', 'create', '--plan', 'enterprise', '--rpm', 'lots', '--rpd', '9'],
      2,
      /--rpm must be a whole number/,
    ],
    [
      ['keys', 'create', '--plan', 'free', '--env', 'dev'],
      2,
      /environment must be production or staging/,
    ],
    [['keys', 'create', '--plan', 'free', '--colour', 'red'], 2, /unknown option '--colour'/],
    [['keys', 'create', '--plan'], 2, /--plan/],
    [['keys'], 2, /say what to do/],
    [['keys', 'delete', '1'], 2, /unknown command "keys delete"/],
    [['keys', 'revoke'], 2, /one argument/],
    [['keys', 'revoke', 'bob'], 1, /neither a key id/],
    [['keys', 'revoke', '424242'], 1, /no API key matches 424242/],
    [['keys', 'roll'], 2, /one argument/],
    [['keys', 'roll', '1', '--overlap-hours', '169'], 2, /from 0 to 168/],
    [['keys', 'roll', '1', '--overlap-hours', 'soon'], 2, /--overlap-hours must be a whole number/],
    [['keys', 'roll', '424242'], 1, /no API key matches 424242/],
    [
      ['keys', 'create', '--plan', 'free', '--expires-at', 'next week'],
      2,
      /--expires-at must be an RFC 3339 time/,
    ],
    [
      ['keys', 'create', '--plan', 'free', '--expires-at', '2027-01-01T00:00:00'],
      2,
      /--expires-at must be an RFC 3339 time with its zone/,
    ],
    [
      ['keys', 'create', '--plan', 'free', '--expires-at', '2001-01-01T00:00:00Z'],
      2,
      /the expiry must be in the future/,
    ],
    [['frobnicate'], 2, /unknown command "frobnicate"/],
  ])('%j fails with one line and exit code %i', async (args, code, message) => {
    expectOneLineFailure(await cli(...args), code, message);
  });

  // Six CLI processes, each starting Node and tsx: over 30 s on a loaded machine, hence 120 s.
  it('create makes staff keys and read-only partner keys; list shows the roles', async () => {
    const staff = await cli('keys', 'create', '--plan', 'business', '--role', 'staff');
    expect(staff.code, staff.stderr).toBe(0);
    expect(staff.stderr).toMatch(/Created production business staff key/);
    const readOnly = await cli(
      'keys',
      'create',
      '--plan',
      'free',
      '--read-only',
      '--name',
      'Kiosk',
    );
    expect(readOnly.code, readOnly.stderr).toBe(0);
    const rows = await sql<{ role: string; read_only: boolean }>(
      'SELECT role, read_only FROM api_keys WHERE hash = ANY($1) ORDER BY id',
      [[staff, readOnly].map((result) => hashApiKey(lines(result.stdout).at(-1) ?? ''))],
    );
    expect(rows).toEqual([
      { role: 'staff', read_only: false },
      { role: 'partner', read_only: true },
    ]);
    const listed = lines((await cli('keys', 'list')).stdout);
    expect(listed.at(-2)).toMatch(/^\d+\s+business key\s+business\s+staff\s+production/);
    expect(listed.at(-1)).toMatch(/^\d+\s+Kiosk\s+free\s+partner read-only\s+production/);
    const json = JSON.parse((await cli('keys', 'list', '--json')).stdout) as Record<
      string,
      unknown
    >[];
    expect(json.at(-1)).toMatchObject({ name: 'Kiosk', role: 'partner', readOnly: true });

    expectOneLineFailure(
      await cli('keys', 'create', '--plan', 'free', '--role', 'admin'),
      2,
      /role must be one of partner, staff/,
    );
    expectOneLineFailure(
      await cli('keys', 'create', '--plan', 'free', '--role', 'staff', '--read-only'),
      2,
      /read-only keys are partner keys/,
    );
    // Nothing was created by the refused commands.
    expect(await sql('SELECT id FROM api_keys')).toHaveLength(5);
  }, 120_000);

  it("create --first-party makes the site's key, a partner key only; list and --json show it", async () => {
    const site = await cli(
      'keys',
      'create',
      '--plan',
      'business',
      '--first-party',
      '--name',
      'Site edge',
    );
    expect(site.code, site.stderr).toBe(0);
    expect(
      await sql('SELECT role, first_party FROM api_keys WHERE hash = $1', [
        hashApiKey(lines(site.stdout).at(-1) ?? ''),
      ]),
    ).toEqual([{ role: 'partner', first_party: true }]);
    expect((await cli('keys', 'list')).stdout).toMatch(
      /^\d+\s+Site edge\s+business\s+partner first-party\s+production/m,
    );
    const json = JSON.parse((await cli('keys', 'list', '--json')).stdout) as Record<
      string,
      unknown
    >[];
    expect(json.find((key) => key.name === 'Site edge')).toMatchObject({ firstParty: true });
    expect(json.find((key) => key.name === 'Kiosk')).toMatchObject({ firstParty: false });
    expectOneLineFailure(
      await cli('keys', 'create', '--plan', 'business', '--role', 'staff', '--first-party'),
      2,
      /first-party keys are partner keys/,
    );
    expect((await cli('keys', 'create', '--help')).stdout).toMatch(/--first-party/);
  }, 120_000);

  // Five CLI processes, each starting Node and tsx: slow on a loaded machine, hence 120 s.
  it('list marks the keys pnpm start made (demo, site, demo staff), secrets never shown', async () => {
    const made: string[] = [];
    for (const [name, role] of [
      ['demo', 'partner'],
      ['web-site', 'partner'],
      ['demo staff', 'staff'],
    ] as const) {
      const result = await cli('keys', 'create', '--plan', 'free', '--name', name, '--role', role);
      expect(result.code, result.stderr).toBe(0);
      made.push(lines(result.stdout).at(-1) ?? '');
    }
    const listed = (await cli('keys', 'list')).stdout;
    expect(listed).toMatch(
      /^\d+\s+demo\s+free\s+partner\s.*active\s+demo key \(printed at first start\)$/m,
    );
    expect(listed).toMatch(/^\d+\s+web-site\s.*active\s+the site \(pnpm start\)$/m);
    expect(listed).toMatch(/^\d+\s+demo staff\s+free\s+staff\s.*active\s+demo staff key$/m);
    expect(listed).toMatch(/^\d+\s+Kiosk\s.*active$/m);
    for (const key of made) {
      expect(listed).not.toContain(key.slice(14));
    }
    const json = JSON.parse((await cli('keys', 'list', '--json')).stdout) as Record<
      string,
      unknown
    >[];
    expect(json.find((key) => key.name === 'demo')?.usedBy).toBe(
      'demo key (printed at first start)',
    );
    expect(json.find((key) => key.name === 'Kiosk')?.usedBy).toBeNull();
  }, 120_000);

  // Six CLI processes, each starting Node and tsx: slow on a loaded machine, hence 120 s.
  it('create --expires-at sets an expiry; roll gives the same key a new secret, shown once', async () => {
    const created = await cli(
      'keys',
      'create',
      '--plan',
      'pro',
      '--name',
      'Rolling app',
      '--expires-at',
      '2099-06-30T12:00:00+02:00',
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toMatch(/expires 2099-06-30 10:00:00 UTC/);
    const oldKey = lines(created.stdout).at(-1) ?? '';
    const [before] = await sql<{ id: string; start: string; expires_at: Date }>(
      'SELECT id, start, expires_at FROM api_keys WHERE hash = $1',
      [hashApiKey(oldKey)],
    );
    expect(before?.expires_at.toISOString()).toBe('2099-06-30T10:00:00.000Z');

    const rolled = await cli('keys', 'roll', before?.start ?? '', '--overlap-hours', '2');
    expect(rolled.code, rolled.stderr).toBe(0);
    const newKey = lines(rolled.stdout).at(-1) ?? '';
    expect(lines(rolled.stdout)).toEqual([newKey]);
    expect(newKey).toMatch(/^pets_live_\w{32}$/);
    expect(newKey).not.toBe(oldKey);
    expect(rolled.stderr).toMatch(
      new RegExp(
        `Rolled key ${before?.id} \\("Rolling app", now ${newKey.slice(0, 14)}\\.\\.\\.\\)`,
      ),
    );
    expect(rolled.stderr).toMatch(
      /old secret keeps working until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/,
    );
    expect(rolled.stderr).not.toContain(newKey);
    // The same row: the id (and so the key's orders and webhooks) stays; the old hash moves aside
    // for two hours by the database's clock.
    const [after] = await sql<{ id: string; previous: boolean; overlap_seconds: number }>(
      `SELECT id, previous_hash = $2 AS previous,
              round(extract(epoch FROM previous_hash_expires_at - now()))::int AS overlap_seconds
         FROM api_keys WHERE hash = $1`,
      [hashApiKey(newKey), hashApiKey(oldKey)],
    );
    expect(after).toMatchObject({ id: before?.id, previous: true });
    expect(after?.overlap_seconds).toBeGreaterThan(7_000);
    expect(after?.overlap_seconds).toBeLessThanOrEqual(7_200);
    expect((await cli('keys', 'list')).stdout).toMatch(
      /^\d+\s+Rolling app\s.*active until 2099-06-30 10:00:00 \(rolled: old secret until .*\)$/m,
    );

    expect((await cli('keys', 'revoke', before?.id ?? '')).code).toBe(0);
    expectOneLineFailure(
      await cli('keys', 'roll', before?.id ?? ''),
      1,
      new RegExp(`key ${before?.id} \\(pets_live_\\w{4}\\) is revoked`),
    );
  }, 120_000);

  it('says in one line when the database cannot be reached', async () => {
    const result = await runCliProcess(['keys', 'list'], {
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/nowhere',
    });
    expectOneLineFailure(result, 1, /reach (the )?database/i);
  });

  it('says in one line when the configuration is invalid', async () => {
    const result = await runCliProcess(['keys', 'list'], { DATABASE_URL: 'mysql://x' });
    expectOneLineFailure(result, 1, /Invalid configuration: DATABASE_URL must start with postgres/);
  });

  it('is wired to the root package.json scripts', async () => {
    const result = await runPnpmScript('keys', ['create', '--plan', 'business'], env);
    expect(result.code).toBe(0);
    const key = lines(result.stdout).at(-1) ?? '';
    expect(key).toMatch(/^pets_live_/);
    expect(await sql('SELECT plan FROM api_keys WHERE hash = $1', [hashApiKey(key)])).toEqual([
      { plan: 'business' },
    ]);
    expect((await runPnpmScript('db:migrate', [], env)).stdout).toMatch(/already up to date/);
  });
});

describe('pnpm accounts', () => {
  const SECRET = 'a secret nobody may see';

  it('create with --password makes an active, verified account; the password is never printed', async () => {
    const result = await cli(
      'accounts',
      'create',
      '--role',
      'admin',
      '--email',
      'owner@example.org',
      '--name',
      'Store Owner',
      '--password',
      SECRET,
    );
    expect(result.code).toBe(0);
    const [id, email] = lines(result.stdout);
    expect(id).toMatch(/^[1-9][0-9]*$/);
    expect(email).toBe('owner@example.org');
    expect(`${result.stdout}${result.stderr}`).not.toContain(SECRET);
    const rows = await sql<{ role: string; status: string; verified: boolean; hash: string }>(
      `SELECT role, status, email_verified_at IS NOT NULL AS verified, password_hash AS hash
         FROM accounts WHERE id = $1`,
      [id],
    );
    expect(rows).toMatchObject([{ role: 'admin', status: 'active', verified: true }]);
    expect(rows[0]?.hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(
      await sql(`SELECT actor_name AS "actorName", action FROM audit_log WHERE target_id = $1`, [
        id,
      ]),
    ).toEqual([{ actorName: 'pnpm accounts', action: 'account.created' }]);
  });

  it('create reads the password from standard input, and gives developers an organisation', async () => {
    const result = await runCliProcess(
      [
        'accounts',
        'create',
        '--role',
        'developer',
        '--email',
        'dev@example.org',
        '--organization',
        'Shelter Apps',
      ],
      env,
      `${SECRET}\n`,
    );
    expect(result.code).toBe(0);
    expect(`${result.stdout}${result.stderr}`).not.toContain(SECRET);
    const [id] = lines(result.stdout);
    expect(
      await sql(
        `SELECT o.name FROM accounts a JOIN organizations o ON o.id = a.organization_id WHERE a.id = $1`,
        [id],
      ),
    ).toEqual([{ name: 'Shelter Apps' }]);
    const explicit = await runCliProcess(
      ['accounts', 'create', '--role', 'staff', '--email', 'desk@example.org', '--password-stdin'],
      env,
      SECRET,
    );
    expect(explicit.code).toBe(0);
  });

  it('refuses a bad role, a short password and a taken email, with exit code 2', async () => {
    const badRole = await cli(
      'accounts',
      'create',
      '--role',
      'root',
      '--email',
      'x@example.org',
      '--password',
      SECRET,
    );
    expectOneLineFailure(badRole, 2, /--role must be admin, staff or developer/);
    const short = await cli(
      'accounts',
      'create',
      '--role',
      'staff',
      '--email',
      'y@example.org',
      '--password',
      'short',
    );
    expectOneLineFailure(short, 2, /at least 10 characters/);
    expect(short.stderr).not.toContain('short');
    const taken = await cli(
      'accounts',
      'create',
      '--role',
      'staff',
      '--email',
      'OWNER@example.org',
      '--password',
      SECRET,
    );
    expectOneLineFailure(taken, 2, /exists already/);
    expect(taken.stderr).not.toContain(SECRET);
  });

  it('list shows the accounts without any hash, and deactivate stops one', async () => {
    const listed = await cli('accounts', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/owner@example\.org/);
    expect(listed.stdout).not.toMatch(/argon2/);
    const json = await cli('accounts', 'list', '--json');
    expect(json.stdout).not.toMatch(/argon2|passwordHash|password_hash/);
    const deactivated = await cli('accounts', 'deactivate', 'desk@example.org');
    expect(deactivated.code).toBe(0);
    expect(await sql(`SELECT status FROM accounts WHERE email = 'desk@example.org'`)).toEqual([
      { status: 'deactivated' },
    ]);
  });

  it('is wired to the root package.json script', async () => {
    const result = await runPnpmScript('accounts', ['list'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/owner@example\.org/);
  });
});
