import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { encodeCursor } from '@pets/contract/rules';
import { openDatabase, redactDatabaseUrl } from '@pets/db';
import { createTestDatabase } from '@pets/db/testing';
import pg from 'pg';
import { API_CLI } from './api-app';

/**
 * The benchmark's database: a new database on DATABASE_URL's server, or (DATABASE_URL unset) a new
 * embedded database in a temporary DATA_DIR. Either way it is the benchmark's own and goes away
 * afterwards, with a DATA_DIR of its own: what the API writes there besides the database (the dev
 * mailbox's messages, named by outbox id, and media) must not land in the developer's `.data`.
 */
export type TBenchDatabase = {
  mode: 'postgresql' | 'embedded';
  /** For people: no password. */
  label: string;
  /** What the API needs in its environment to use this database. */
  apiEnv: Record<string, string>;
  /** The database's URL; for the embedded one, known once the API (its owner) serves it. */
  resolveUrl: () => Promise<string>;
  /** Drops the database (PostgreSQL) or deletes its directory (embedded; stop the API first). */
  drop: () => Promise<void>;
};

const withClient = async <T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: url, application_name: 'pets-bench' });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

export const createBenchDatabase = async (
  databaseUrl: string | undefined,
): Promise<TBenchDatabase> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'pets-bench-'));
  const removeDataDir = () => rm(dataDir, { recursive: true, force: true });
  if (!databaseUrl) {
    let url: string | undefined;
    return {
      mode: 'embedded',
      label: `embedded PostgreSQL (PGlite) in ${dataDir}, owned by the API process`,
      apiEnv: { DATA_DIR: dataDir },
      resolveUrl: async () => {
        url ??= (await openDatabase({ DATABASE_URL: undefined, dataDir }, { role: 'tool' })).url;
        return url;
      },
      drop: removeDataDir,
    };
  }
  // The one create-migrate-drop of @pets/db/testing, on DATABASE_URL's server.
  const { url, drop } = await createTestDatabase({
    adminUrl: databaseUrl,
    namePrefix: 'pets_bench',
    adminUrlSetting: 'DATABASE_URL',
  }).catch(async (error: unknown) => {
    await removeDataDir();
    throw error;
  });
  const version = await withClient(url, async (client) => {
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return rows[0]?.server_version ?? '?';
  });
  return {
    mode: 'postgresql',
    label: `PostgreSQL ${version.split(' ')[0]} at ${redactDatabaseUrl(url)} (created for this run)`,
    apiEnv: { DATABASE_URL: url, DATA_DIR: dataDir },
    resolveUrl: async () => url,
    drop: async () => {
      await drop();
      await removeDataDir();
    },
  };
};

const CATEGORIES = ['Dogs', 'Cats', 'Rabbits', 'Birds', 'Guinea pigs', 'Hamsters', 'Reptiles'];
const NAMES = [
  'Luna',
  'Milo',
  'Bella',
  'Oliver',
  'Daisy',
  'Charlie',
  'Coco',
  'Max',
  'Nala',
  'Biscuit',
  'Pepper',
  'Ziggy',
  'Willow',
  'Rocky',
  'Maple',
  'Olive',
];
const CHUNK = 200_000;

/**
 * A percentile of row `g` for one attribute, 0..99: PostgreSQL's own hash of `g` with a seed per
 * attribute, so the attributes are independent of each other and of the status (`g % 10`).
 */
const percentile = (seed: number) => `(abs(hashint8extended(g::bigint, ${seed})) % 100)`;

/**
 * The animal profile with an adoption store's proportions: sex 47% male, 47% female, 3%
 * unknown, 3% not said; age 15% baby, 30% young, 40% adult, 10% senior, 5% not said; size 35%
 * small, 35% medium, 20% large, 5% extra large, 5% not said; an arrival date within 5 years.
 * No description or breed: they are not filtered on, and would only slow the fill.
 */
const PROFILE_COLUMNS = `
       (CASE WHEN ${percentile(1)} < 47 THEN 'male' WHEN ${percentile(1)} < 94 THEN 'female'
             WHEN ${percentile(1)} < 97 THEN 'unknown' END)::pet_sex,
       (CASE WHEN ${percentile(2)} < 15 THEN 'baby' WHEN ${percentile(2)} < 45 THEN 'young'
             WHEN ${percentile(2)} < 85 THEN 'adult' WHEN ${percentile(2)} < 95 THEN 'senior'
        END)::pet_age,
       (CASE WHEN ${percentile(3)} < 35 THEN 'small' WHEN ${percentile(3)} < 70 THEN 'medium'
             WHEN ${percentile(3)} < 90 THEN 'large' WHEN ${percentile(3)} < 95 THEN 'xlarge'
        END)::pet_size,
       DATE '2021-11-23' + (g % 1826)::int`;

/**
 * The details adopters ask about (issue 28), so every list item carries them as a real store's
 * do: good with children 45% yes, 20% no, else unknown (dogs 40/20, cats 30/25); house-trained
 * 70%, neutered 80%, vaccinated 85%; special needs 8%, with a note; energy low 30%, medium 45%,
 * high 25%; a coat; one or two colours; a fee for 90% (25.00 to 49.75 GBP), else "ask the store".
 */
const DETAIL_COLUMNS = `,
       (CASE WHEN ${percentile(4)} < 45 THEN true WHEN ${percentile(4)} < 65 THEN false END),
       (CASE WHEN ${percentile(5)} < 40 THEN true WHEN ${percentile(5)} < 60 THEN false END),
       (CASE WHEN ${percentile(6)} < 30 THEN true WHEN ${percentile(6)} < 55 THEN false END),
       ${percentile(7)} < 70,
       ${percentile(8)} < 80,
       ${percentile(9)} < 85,
       ${percentile(10)} < 8,
       (CASE WHEN ${percentile(10)} < 8 THEN 'Takes a daily tablet, hidden in a treat.' END),
       (CASE WHEN ${percentile(11)} < 30 THEN 'low' WHEN ${percentile(11)} < 75 THEN 'medium'
             ELSE 'high' END)::pet_energy_level,
       (CASE WHEN ${percentile(12)} < 5 THEN 'hairless' WHEN ${percentile(12)} < 55 THEN 'short'
             WHEN ${percentile(12)} < 85 THEN 'medium' ELSE 'long' END)::pet_coat_length,
       (CASE WHEN ${percentile(13)} < 50
             THEN ARRAY[(enum_range(NULL::pet_color))[1 + ${percentile(13)} % 20]]
             ELSE ARRAY[(enum_range(NULL::pet_color))[1 + ${percentile(13)} % 20],
                        (enum_range(NULL::pet_color))[1 + (${percentile(13)} + 7) % 20]] END),
       (CASE WHEN ${percentile(14)} < 90 THEN 2500 + ${percentile(14)} * 25 END),
       (CASE WHEN ${percentile(14)} < 90 THEN 'GBP' END)`;

/**
 * Pets rows: mostly `sold` (60%), then `available` (20%) and `pending` (20%), as an old store's;
 * named `<name> <g>` (the name search finds a common word, or one animal by its number), with a
 * profile (PROFILE_COLUMNS) and the details (DETAIL_COLUMNS).
 */
const INSERT_PETS = `
WITH c AS (SELECT array_agg(id ORDER BY id) AS ids FROM categories)
INSERT INTO pets (name, category_id, status, sex, age, size, arrived_at,
                  good_with_children, good_with_dogs, good_with_cats, house_trained,
                  spayed_neutered, vaccinated, special_needs, special_needs_note, energy_level,
                  coat_length, colors, adoption_fee_amount, adoption_fee_currency)
SELECT (ARRAY[${NAMES.map((name) => `'${name}'`).join(', ')}])[1 + g % ${NAMES.length}] || ' ' || g,
       c.ids[1 + g % cardinality(c.ids)],
       (CASE WHEN g % 10 < 6 THEN 'sold' WHEN g % 10 < 8 THEN 'available' ELSE 'pending' END)::pet_status,${PROFILE_COLUMNS}${DETAIL_COLUMNS}
FROM c, generate_series($1::int, $2::int) AS g`;

/**
 * One photo for each animal the last INSERT_PETS added (those above `$1`, the largest id before
 * it), as the API stores an upload: a pet_photos row with its three sizes, whose trigger writes
 * the animal's photo list, so every item of a list carries a photo with three
 * addresses. About 12 s per 200,000 animals here (the trigger rewrites each animal's row).
 */
const INSERT_PHOTOS = `
INSERT INTO pet_photos (pet_id, position, width, height, placeholder, sizes)
SELECT p.id, 0, 1200, 900, '1QcSHQRnh493V4dIh4eXh1h4kJUI',
       (SELECT jsonb_agg(jsonb_build_object(
                 'width', w, 'height', w * 3 / 4,
                 'key', 'pets/' || p.id || '/' || lpad(to_hex(p.id), 16, '0') || '-' || w || '.webp')
               ORDER BY w)
        FROM unnest(ARRAY[160, 480, 1200]) AS w)
FROM pets p
WHERE p.id > $1`;

/**
 * Brings the pets table to `size` rows with SQL (INSERT ... SELECT generate_series, which the
 * embedded database supports, unlike COPY FROM STDIN), then refreshes the planner's statistics.
 */
export const fillPets = async (url: string, size: number): Promise<number> => {
  return withClient(url, async (client) => {
    const values = CATEGORIES.map((_, index) => `($${index + 1})`).join(', ');
    await client.query(
      `INSERT INTO categories (name) VALUES ${values} ON CONFLICT (name) DO NOTHING`,
      CATEGORIES,
    );
    const { rows } = await client.query<{ count: string }>('SELECT count(*) FROM pets');
    let count = Number(rows[0]?.count ?? 0);
    while (count < size) {
      const upTo = Math.min(size, count + CHUNK);
      const before = await client.query<{ max: string }>(
        'SELECT coalesce(max(id), 0) AS max FROM pets',
      );
      await client.query(INSERT_PETS, [count + 1, upTo]);
      await client.query(INSERT_PHOTOS, [before.rows[0]?.max ?? '0']);
      count = upTo;
    }
    await client.query('VACUUM (ANALYZE) pets');
    return count;
  });
};

const MAX_LIMIT = '2147483647';

/**
 * An enterprise key whose limits the run can never reach (the limiter does its full work), made by
 * the API's own key command: the new key is the last line of its standard output.
 */
export const createBenchKey = async (
  url: string,
  role: 'partner' | 'staff' = 'partner',
): Promise<string> => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      API_CLI,
      ...['keys', 'create', '--plan', 'enterprise', '--name', `benchmark ${role}`],
      ...['--env', 'production', '--role', role],
      ...['--rpm', MAX_LIMIT, '--rpd', MAX_LIMIT],
    ],
    { env: { ...process.env, DATABASE_URL: url } },
  );
  return stdout.trim().split('\n').at(-1) ?? '';
};

/** The oldest animal's id: updatePet renames the 10,000 from it in turn. */
export const firstPetId = (url: string): Promise<number> =>
  withClient(url, async (client) => {
    const { rows } = await client.query<{ id: string }>('SELECT min(id) AS id FROM pets');
    return Number(rows[0]?.id ?? 1);
  });

/**
 * `count` new available animals, for placeOrder to order each once: their ids, consecutive (one
 * statement, nothing else inserting meanwhile; checked).
 */
export const insertAvailablePets = (
  url: string,
  count: number,
): Promise<{ from: number; to: number }> =>
  withClient(url, async (client) => {
    const { rows } = await client.query<{ from: string; to: string; count: string }>(
      `WITH c AS (SELECT min(id) AS id FROM categories),
       inserted AS (
         INSERT INTO pets (name, category_id, status)
         SELECT 'Orderable ' || g, c.id, 'available' FROM c, generate_series(1, $1::int) AS g
         RETURNING id
       )
       SELECT min(id) AS from, max(id) AS to, count(*) AS count FROM inserted`,
      [count],
    );
    const from = Number(rows[0]?.from);
    const to = Number(rows[0]?.to);
    if (to - from + 1 !== count || Number(rows[0]?.count) !== count) {
      throw new Error(`the ${count} animals to order did not get consecutive ids`);
    }
    return { from, to };
  });

export const firstCategoryId = (url: string): Promise<string> =>
  withClient(url, async (client) => {
    const { rows } = await client.query<{ id: string }>('SELECT min(id) AS id FROM categories');
    return rows[0]?.id ?? '1';
  });

/** The cursor of a page 90% of the way down the newest-first list: a deep page. */
export const deepCursor = async (url: string): Promise<string> =>
  withClient(url, async (client) => {
    const { rows } = await client.query<{ id: string }>(
      'SELECT id FROM pets ORDER BY id OFFSET (SELECT count(*) / 10 FROM pets) LIMIT 1',
    );
    const id = rows[0]?.id;
    if (!id) {
      throw new Error('no pets to page through');
    }
    // The contract's cursor format, as the API issues it; checked against the API's answer before
    // any load is sent.
    return encodeCursor(id);
  });

export type TPlan = {
  /** Node types, outermost first, e.g. Limit > Index Scan (pets_pkey). */
  summary: string;
  /** No Seq Scan, no Sort, no aggregate: one index scan that stops after the page. */
  isIndexOnly: boolean;
};

/** A plan as EXPLAIN ANALYZE ran it: what it read and how long it took. */
export type TAnalyzedPlan = TPlan & {
  /** Rows the scans of pets produced, and the rows their filters threw away. */
  rowsRead: number;
  /** Execution time reported by PostgreSQL, in ms. */
  executionMs: number;
};

type TPlanNode = {
  'Node Type': string;
  'Index Name'?: string;
  'Scan Direction'?: string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: TPlanNode[];
};

const flatten = (node: TPlanNode): TPlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

const planOf = (nodes: TPlanNode[]): TPlan => ({
  summary: nodes
    .map((node) => `${node['Node Type']}${node['Index Name'] ? ` (${node['Index Name']})` : ''}`)
    .join(' > '),
  isIndexOnly:
    nodes.some((node) => node['Node Type'].startsWith('Index')) &&
    !nodes.some((node) => /Seq Scan|Sort|Aggregate|Bitmap/.test(node['Node Type'])),
});

/** EXPLAIN of a statement with its parameters. */
export const explain = (url: string, sql: string, params: unknown[]): Promise<TPlan> =>
  withClient(url, async (client) => {
    const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: TPlanNode }] }>(
      `EXPLAIN (FORMAT JSON) ${sql}`,
      params,
    );
    const root = rows[0]?.['QUERY PLAN'][0].Plan;
    return planOf(root ? flatten(root) : []);
  });

/**
 * EXPLAIN ANALYZE of a statement: its plan, the rows its scans of pets read (kept or filtered
 * out: the work a filter costs), and its execution time. Runs the statement (a read).
 */
export const explainAnalyze = (
  url: string,
  sql: string,
  params: unknown[],
): Promise<TAnalyzedPlan> =>
  withClient(url, async (client) => {
    const { rows } = await client.query<{
      'QUERY PLAN': [{ Plan: TPlanNode; 'Execution Time': number }];
    }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
    const result = rows[0]?.['QUERY PLAN'][0];
    const nodes = result ? flatten(result.Plan) : [];
    const scans = nodes.filter(
      (node) => node['Relation Name'] === 'pets' && /Scan/.test(node['Node Type']),
    );
    const rowsRead = scans.reduce(
      (sum, node) =>
        sum +
        ((node['Actual Rows'] ?? 0) +
          (node['Rows Removed by Filter'] ?? 0) +
          (node['Rows Removed by Index Recheck'] ?? 0)) *
          (node['Actual Loops'] ?? 1),
      0,
    );
    return {
      ...planOf(nodes),
      rowsRead: Math.round(rowsRead),
      executionMs: Number((result?.['Execution Time'] ?? 0).toFixed(2)),
    };
  });
