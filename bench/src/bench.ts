import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { decodeCursor } from '@pets/contract/rules';
import { countPetsStatement, listPetsStatement } from '@pets/store/pets.repository';
import Redis from 'ioredis';
import { API_NODE_FLAGS } from './api-app';
import {
  createBenchDatabase,
  createBenchKey,
  deepCursor,
  explain,
  explainAnalyze,
  fillPets,
  firstCategoryId,
  firstPetId,
  insertAvailablePets,
  type TBenchDatabase,
  type TPlan,
} from './data';
import type { TLoadOutput, TLoadSpec } from './load';
import {
  cpuTimeMs,
  freePort,
  rssBytes,
  runNodeJson,
  startRssSampler,
  startServer,
  type TServer,
} from './processes';
import { readProfile, summarise } from './profile';
import {
  evaluateTargets,
  ratio,
  type TMeasured,
  type TPlanRow,
  type TProfileAttribution,
  type TReport,
  type TRunResult,
  type TScenarioId,
  toMb,
} from './report';

export type TBenchOptions = {
  kind: TReport['kind'];
  sizes: number[];
  scenarios: TScenarioId[];
  connections: number;
  durationSec: number;
  warmupSec: number;
  /** Write V8 CPU profiles of the API and the floor (node --cpu-prof) into this directory. */
  profileDir: string | null;
  /** What the profiles hold: CPU time (--profile) or allocations (--alloc). */
  profileKind: 'cpuprofile' | 'heapprofile';
  /** Allocation profiles of the objects that outlived the young generation only (--promoted). */
  promotedOnly?: boolean;
  /** Where the servers' logs go. */
  workDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** The API's entry point: its production build. */
  apiEntry: string;
  /** Extra environment of the API (experiments: what does the access log cost?). */
  apiEnv: Record<string, string>;
  /**
   * A webhook endpoint for every event, on a receiver in this process (`--webhooks`): the
   * deliveries' cost on the request path, against a run without.
   */
  webhooks?: boolean;
  log: (line: string) => void;
};

type TScenario = {
  id: TScenarioId;
  request: string;
  spec: Pick<TLoadSpec, 'method' | 'body' | 'uniqueHeader'> & { path: string };
  /** The statement the API sends for it (from its pets repository), to EXPLAIN. */
  plan: { sql: string; values: unknown[] } | null;
  /** Sent with a staff key instead of the partner key (updatePet is staff-only). */
  asStaff?: boolean;
  /** Loaded on the conventional NestJS peer too (peer.ts serves only the list). */
  withPeer?: boolean;
  /** Once, before the check: the data the requests need (orders to list). */
  setup?: () => Promise<void>;
  /**
   * Before each load of `seconds` (0: the check), the numbers its requests take in turn (see
   * TLoadSpec's sequence): new animals to order, or animals to rename.
   */
  sequenceFor?: (seconds: number) => Promise<NonNullable<TLoadSpec['sequence']>>;
};

const scenariosFor = (cursor: string, categoryId: string): TScenario[] => [
  {
    id: 'list',
    request: 'GET /v1/pets?limit=20',
    spec: { method: 'GET', path: '/v1/pets?limit=20' },
    plan: listPetsStatement({ limit: 20 }),
    withPeer: true,
  },
  {
    id: 'status',
    request: 'GET /v1/pets?status=sold&limit=100',
    spec: { method: 'GET', path: '/v1/pets?status=sold&limit=100' },
    plan: listPetsStatement({ limit: 100, status: 'sold' }),
    withPeer: true,
  },
  {
    id: 'deep',
    request: 'GET /v1/pets?limit=20&cursor=<deep>',
    spec: { method: 'GET', path: `/v1/pets?limit=20&cursor=${cursor}` },
    plan: listPetsStatement({ limit: 20, before: decodeCursor(cursor) ?? undefined }),
    withPeer: true,
  },
  // The profile filters under load: two profile filters, and the name search for a
  // common word (one animal in NAMES.length is a Maple; so are the animals the POST scenarios
  // create, so that the smoke run's second size, made mostly of those, still has pages of them).
  {
    id: 'profile',
    request: 'GET /v1/pets?sex=female&size=small&limit=20',
    spec: { method: 'GET', path: '/v1/pets?sex=female&size=small&limit=20' },
    plan: listPetsStatement({ limit: 20, sex: 'female', size: 'small' }),
  },
  {
    id: 'search',
    request: 'GET /v1/pets?name=maple&limit=20',
    spec: { method: 'GET', path: '/v1/pets?name=maple&limit=20' },
    // Its plan is in the EXPLAIN ANALYZE table (planCasesFor): a search may rightly read the GIN
    // index into a bitmap and sort, which the lists' "index scans only" target would count.
    plan: null,
  },
  {
    id: 'create',
    request: 'POST /v1/pets',
    spec: {
      method: 'POST',
      path: '/v1/pets',
      body: JSON.stringify({ name: 'Maple Benchmark', categoryId: Number(categoryId) }),
    },
    plan: null,
  },
];

/**
 * Requests whose plans the benchmark shows without loading them: the profile filters
 * (one each, the rarest combination, with the old filters), the name search (a common word, one
 * animal), the details' filters and the sorts (one each), and the total count (`include=total_count`), with and without filters. EXPLAIN ANALYZE
 * runs each once: its plan, the rows it read and its time go into the table.
 */
const planCasesFor = (
  categoryId: string,
): { request: string; statement: { sql: string; values: unknown[] } }[] => {
  const category = Number(categoryId);
  return [
    ['sex=female', { sex: 'female' }],
    ['size=xlarge', { size: 'xlarge' }],
    ['age=senior&size=xlarge&sex=unknown', { age: 'senior', size: 'xlarge', sex: 'unknown' }],
    [
      'status=available&sex=female&size=small',
      { status: 'available', sex: 'female', size: 'small' },
    ],
    [
      `categoryId=${category}&status=pending&age=baby&size=xlarge`,
      { categoryId: category, status: 'pending', age: 'baby', size: 'xlarge' },
    ],
    ['name=maple', { name: 'maple' }],
    ['name=maple 1234', { name: 'maple 1234' }],
    ['name=maple&status=available&sex=male', { name: 'maple', status: 'available', sex: 'male' }],
    // The details (DETAIL_COLUMNS' proportions): each yes/no answer's rarer side, the others'
    // rarest value, the fee at both ends, and each sort (first page and a deep one).
    ['goodWithChildren=false', { goodWithChildren: false }],
    ['goodWithDogs=false', { goodWithDogs: false }],
    ['goodWithCats=true', { goodWithCats: true }],
    ['houseTrained=false', { houseTrained: false }],
    ['spayedNeutered=false', { spayedNeutered: false }],
    ['vaccinated=false', { vaccinated: false }],
    ['specialNeeds=true', { specialNeeds: true }],
    ['energyLevel=high', { energyLevel: 'high' }],
    ['coatLength=hairless', { coatLength: 'hairless' }],
    ['feeMax=0&feeCurrency=GBP', { feeMax: 0, feeCurrency: 'GBP' }],
    ['feeMax=3000&feeCurrency=GBP', { feeMax: 3000, feeCurrency: 'GBP' }],
    ['feeCurrency=EUR', { feeCurrency: 'EUR' }],
    ['sort=oldest', { sort: 'oldest' }],
    ['sort=name', { sort: 'name' }],
    ['sort=name (a page at Maple 5)', { sort: 'name', before: 5n, nameAfter: 'Maple 5' }],
    ['sort=arrived', { sort: 'arrived' }],
    [
      'sort=arrived (a page at 2024-01-01)',
      { sort: 'arrived', before: 500n, arrivedAfter: '2024-01-01' },
    ],
    ['sort=updatedAt', { sort: 'updatedAt' }],
  ]
    .map(([query, filters]) => ({
      request: `GET /v1/pets?${query}&limit=20`,
      statement: listPetsStatement({ limit: 20, ...(filters as object) }),
    }))
    .concat(
      (
        [
          ['', {}],
          ['status=available&', { status: 'available' }],
          ['sex=female&size=small&', { sex: 'female', size: 'small' }],
          ['name=maple&', { name: 'maple' }],
        ] as const
      ).map(([query, filters]) => ({
        request: `GET /v1/pets?${query}include=total_count (the count)`,
        statement: countPetsStatement(filters),
      })),
    );
};

/**
 * The other operations, measured the same way against a floor that sends the API's own
 * statements (floor.ts): updatePet (a staff key renaming one of 10,000 animals in turn, so that
 * requests do not queue on one row's lock), listOrders (the first page of the key's orders),
 * placeOrder (each request a new available animal, inserted before each load) and createPet with
 * a new Idempotency-Key on each request (claim, create and store the response).
 */
const writeScenariosFor = (
  url: string,
  categoryId: string,
  apiBaseUrl: string,
  headers: Record<string, string>,
): TScenario[] => [
  {
    id: 'update',
    request: 'PATCH /v1/pets/{id}',
    spec: { method: 'PATCH', path: '/v1/pets/__ID__', body: JSON.stringify({ name: 'Renamed' }) },
    plan: null,
    asStaff: true,
    sequenceFor: async () => {
      const first = await firstPetId(url);
      return { placeholder: '__ID__', from: first, to: first + 9_999, cycle: true };
    },
  },
  {
    id: 'orders',
    request: 'GET /v1/store/orders?limit=20',
    spec: { method: 'GET', path: '/v1/store/orders?limit=20' },
    plan: null,
    setup: async () => {
      const { from } = await insertAvailablePets(url, 25);
      for (let index = 0; index < 25; index += 1) {
        const response = await fetch(`${apiBaseUrl}/v1/store/orders`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ petId: from + index, adopter: BENCH_ADOPTER }),
        });
        if (response.status !== 201) {
          throw new Error(
            `placing the orders to list: ${response.status} ${await response.text()}`,
          );
        }
      }
    },
  },
  {
    id: 'place',
    request: 'POST /v1/store/orders',
    spec: {
      method: 'POST',
      path: '/v1/store/orders',
      body: `{"petId":__PET__,"adopter":${JSON.stringify(BENCH_ADOPTER)}}`,
    },
    plan: null,
    // Never more than 6,000 orders a second here: animals enough for both servers' turns.
    sequenceFor: async (seconds) => ({
      placeholder: '__PET__',
      ...(await insertAvailablePets(url, Math.max(4, Math.ceil(seconds * 2 * 6_000)))),
    }),
  },
  {
    id: 'idempotent',
    request: 'POST /v1/pets with Idempotency-Key',
    spec: {
      method: 'POST',
      path: '/v1/pets',
      body: JSON.stringify({ name: 'Maple Benchmark', categoryId: Number(categoryId) }),
      uniqueHeader: 'idempotency-key',
    },
    plan: null,
  },
];

const BENCH_ADOPTER = { name: 'Bench Adopter', email: 'bench@example.com' };

/**
 * One request to every server before any load (the API, the floor, and the peer where it serves
 * the request): all must succeed and, for lists, agree byte for byte.
 */
const checkScenario = async (
  scenario: TScenario,
  servers: TServer[],
  headers: Record<string, string>,
) => {
  const sequence = await scenario.sequenceFor?.(0);
  const answers = await Promise.all(
    servers.map(async (server, index) => {
      const value = String((sequence?.from ?? 0) + index);
      const response = await fetch(
        `${server.baseUrl}${scenario.spec.path.replace(sequence?.placeholder ?? '\0', value)}`,
        {
          method: scenario.spec.method,
          headers: scenario.spec.uniqueHeader
            ? { ...headers, [scenario.spec.uniqueHeader]: randomBytes(16).toString('hex') }
            : headers,
          body: scenario.spec.body?.replace(sequence?.placeholder ?? '\0', value) ?? null,
        },
      );
      const body = await response.text();
      const expected = scenario.spec.method === 'POST' ? 201 : 200;
      if (response.status !== expected) {
        throw new Error(
          `${server.name} answered ${scenario.request} with ${response.status}: ${body.slice(0, 300)}`,
        );
      }
      return { body, link: response.headers.get('link') };
    }),
  );
  const [ours, ...others] = answers;
  others.forEach((other, index) => {
    if (
      scenario.spec.method === 'GET' &&
      (ours?.body !== other.body || ours?.link !== other.link)
    ) {
      throw new Error(
        `the API and the ${servers[index + 1]?.name} disagree on ${scenario.request}:\n${ours?.link} ${ours?.body.slice(0, 200)}\n${other.link} ${other.body.slice(0, 200)}`,
      );
    }
  });
  const items = JSON.parse(ours?.body ?? '[]') as unknown[];
  if (scenario.spec.method === 'GET' && (items.length === 0 || !ours?.link)) {
    throw new Error(`${scenario.request} returned an empty or last page: the data is not there`);
  }
};

const LOAD_SCRIPT = join(__dirname, 'load.js');
const PROFILER_PRELOAD = join(__dirname, 'profiler-preload.js');
const FLOOR_SCRIPT = join(__dirname, 'floor.js');
const PEER_SCRIPT = join(__dirname, 'peer.js');

/** Starts and stops the profiler preloaded into a server (profiler-preload.ts). */
const profiler = (server: TServer, directory: string, kind: TBenchOptions['profileKind']) => {
  const count = (profileCounts.get(server.pid) ?? 0) + 1;
  profileCounts.set(server.pid, count);
  return {
    start: () => process.kill(server.pid, 'SIGUSR2'),
    /** Stops, waits for the file and names it; returns its path. */
    stop: async (name: string): Promise<string> => {
      process.kill(server.pid, 'SIGUSR2');
      const written = join(directory, `${server.pid}-${count}.${kind}`);
      for (let waited = 0; !existsSync(written); waited += 100) {
        if (waited > 30_000) {
          throw new Error(`${server.name} wrote no ${kind}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const target = join(directory, name);
      await rename(written, target);
      return target;
    },
  };
};
const profileCounts = new Map<number, number>();

/**
 * A profile's busy time (µs) or allocated bytes (KB, one decimal) per request, by what the request
 * was doing. A heap profile's summary counts bytes where a CPU profile's counts milliseconds.
 */
const profilePerRequest = (file: string, requests: number): TProfileAttribution => {
  const summary = summarise(readProfile(file));
  const isHeap = file.endsWith('.heapprofile');
  const perRequest = (amount: number) =>
    isHeap
      ? Math.round((amount / 1024 / requests) * 10) / 10
      : Math.round((amount * 1000) / requests);
  return {
    file,
    unit: isHeap ? 'KB' : 'µs',
    totalPerRequest: perRequest(summary.busyMs),
    buckets: summary.byBucket.map((each) => ({
      name: each.name,
      perRequest: perRequest(each.selfMs),
    })),
  };
};

/** Slices of load per target: the API and the floor take turns (see load.ts). */
const slicing = (seconds: number) => {
  const sliceSec = Math.min(2, seconds);
  return { sliceSec, slices: Math.max(1, Math.round(seconds / sliceSec)) };
};

/**
 * Loads the API and the floor (and the peer, when given) in turns with one scenario; CPU and RSS
 * of each are sampled. Only the API and the floor are profiled.
 */
const measure = async (
  servers: { ours: TServer; floor: TServer; peer?: TServer | undefined },
  scenario: TScenario,
  headers: Record<string, string>,
  options: TBenchOptions,
  warmupSec: number,
  label: string,
): Promise<{ ours: TMeasured; floor: TMeasured; peer?: TMeasured }> => {
  const { ours, floor, peer } = servers;
  const loaded = peer ? [ours, floor, peer] : [ours, floor];
  const load = async (seconds: number) => {
    const sequence = await scenario.sequenceFor?.(seconds);
    // A path that takes the sequence (updatePet's id) is sent as the body is: see load.ts.
    return runNodeJson<TLoadOutput>(LOAD_SCRIPT, {
      targets: loaded.map((server) => ({
        name: server.name,
        url: `${server.baseUrl}${scenario.spec.path}`,
      })),
      method: scenario.spec.method,
      headers,
      body: scenario.spec.body,
      ...(sequence ? { sequence } : {}),
      ...(scenario.spec.uniqueHeader ? { uniqueHeader: scenario.spec.uniqueHeader } : {}),
      connections: options.connections,
      ...slicing(seconds),
      warmupSlices: 0,
    } satisfies TLoadSpec);
  };
  const samplers = loaded.map((server) => startRssSampler(server.pid));
  let output: TLoadOutput;
  let cpuMs: (number | null)[] = [];
  let peaks: number[] = [];
  let profiles: string[] = [];
  try {
    if (warmupSec > 0) {
      await load(warmupSec);
    }
    const { profileDir } = options;
    const profiled = profileDir
      ? [ours, floor].map((server) => profiler(server, profileDir, options.profileKind))
      : [];
    for (const each of profiled) {
      each.start();
    }
    const before = loaded.map((server) => cpuTimeMs(server.pid));
    output = await load(options.durationSec);
    const after = loaded.map((server) => cpuTimeMs(server.pid));
    profiles = await Promise.all(
      profiled.map((each, index) =>
        each.stop(`${index === 0 ? 'api' : 'floor'}-${label}.${options.profileKind}`),
      ),
    );
    cpuMs = before.map((start, index) => {
      const end = after[index];
      return start === null || end === null || end === undefined ? null : end - start;
    });
  } finally {
    peaks = samplers.map((sampler) => sampler.stop());
  }
  const [oursResult, floorResult, peerResult] = loaded.map((server, index): TMeasured => {
    const result = output[server.name];
    if (!result) {
      throw new Error(`no result for ${server.name}`);
    }
    const failed = result.non2xx + result.errors + result.timeouts;
    if (failed > 0 || result.requests === 0) {
      throw new Error(
        `${server.name} failed ${failed} of ${result.requests} requests of ${scenario.request} (status codes ${JSON.stringify(result.statusCodes)}, errors ${result.errors}, timeouts ${result.timeouts}); see ${server.logFile}`,
      );
    }
    const cpu = cpuMs[index];
    const profile = profiles[index];
    return {
      ...result,
      peakRssMb: toMb(peaks[index] ?? 0),
      cpuUsPerRequest:
        cpu === null || cpu === undefined ? null : Math.round((cpu * 1000) / result.requests),
      ...(profile ? { profile: profilePerRequest(profile, result.requests) } : {}),
    };
  });
  return {
    ours: oursResult as TMeasured,
    floor: floorResult as TMeasured,
    ...(peerResult ? { peer: peerResult } : {}),
  };
};

/** The API's environment: the production build with its production defaults, pointed at ours. */
/** Both servers give photos the same addresses, so their answers can be compared byte for byte. */
const BENCH_MEDIA_BASE_URL = 'http://localhost/media';

/** A webhook receiver on the loopback that answers 204 and counts. */
const startWebhookReceiver = async () => {
  let count = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      count += 1;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    count: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

const apiEnvironment = (
  database: TBenchDatabase,
  port: number,
  options: TBenchOptions,
  redisKeyPrefix: string,
): Record<string, string> => {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined &&
        !['DATABASE_URL', 'DATA_DIR', 'REDIS_URL', 'PORT', 'HOST', 'LOG_LEVEL'].includes(entry[0]),
    ),
  );
  return {
    ...inherited,
    NODE_ENV: 'production',
    APP_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    MEDIA_BASE_URL: BENCH_MEDIA_BASE_URL,
    ...database.apiEnv,
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl, REDIS_KEY_PREFIX: redisKeyPrefix } : {}),
    ...options.apiEnv,
  };
};

const deleteRedisKeys = async (url: string, prefix: string): Promise<number> => {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) {
        deleted += await redis.unlink(...keys);
      }
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
};

/** Runs the whole benchmark and returns its report. Cleans up after itself, even on failure. */
export const runBench = async (options: TBenchOptions): Promise<TReport> => {
  const { log } = options;
  const startedAt = new Date();
  const loadAverageAtStart = Number((loadavg()[0] ?? 0).toFixed(2));
  await mkdir(options.workDir, { recursive: true });
  if (options.profileDir) {
    await mkdir(options.profileDir, { recursive: true });
  }
  const profileArgs = options.profileDir ? ['-r', PROFILER_PRELOAD] : [];
  const profileEnv: Record<string, string> = options.profileDir
    ? {
        BENCH_PROFILE_DIR: options.profileDir,
        BENCH_PROFILE_KIND: options.profileKind,
        ...(options.promotedOnly ? { BENCH_PROFILE_PROMOTED: '1' } : {}),
      }
    : {};

  const database = await createBenchDatabase(options.databaseUrl);
  log(`Database: ${database.label}`);
  const redisKeyPrefix = `pets:bench:${randomBytes(4).toString('hex')}:`;
  const rateLimits = options.redisUrl
    ? `Redis at ${options.redisUrl.replace(/\/\/[^@]*@/, '//***@')} (key prefix ${redisKeyPrefix}, deleted afterwards)`
    : "the API's memory (REDIS_URL unset)";
  log(`Rate limits: ${rateLimits}`);

  const servers: TServer[] = [];
  const receiver = options.webhooks ? await startWebhookReceiver() : undefined;
  const cleanup = async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await receiver?.close();
    await database.drop();
    if (options.redisUrl) {
      await deleteRedisKeys(options.redisUrl, redisKeyPrefix);
    }
  };
  const onSignal = () => {
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('SIGHUP', onSignal);

  const results: TRunResult[] = [];
  const plans: TPlanRow[] = [];
  const peakRssMb: TReport['peakRssMb'] = [];
  let apiRssAtRestMb = 0;
  try {
    const apiPort = await freePort();
    const api = await startServer({
      name: 'API',
      // As production starts it (`pnpm start`'s flags, as the Dockerfile's).
      nodeArgs: [...API_NODE_FLAGS, ...profileArgs, options.apiEntry],
      env: { ...apiEnvironment(database, apiPort, options, redisKeyPrefix), ...profileEnv },
      port: apiPort,
      logFile: join(options.workDir, 'api.log'),
    });
    servers.push(api);
    log(
      `API (production build, node ${[...API_NODE_FLAGS, options.apiEntry].join(' ')}) serving at ${api.baseUrl}, pid ${api.pid}`,
    );

    const url = await database.resolveUrl();
    // Idle since it started (the embedded database opened in it): its memory at rest.
    apiRssAtRestMb = toMb(rssBytes(api.pid) ?? 0);
    log(`API RSS at rest: ${apiRssAtRestMb} MB`);
    const key = await createBenchKey(url);
    if (receiver) {
      const response = await fetch(`${api.baseUrl}/v1/webhook-endpoints`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url, events: ['*'] }),
      });
      if (response.status !== 201) {
        throw new Error(`createWebhookEndpoint answered ${response.status}`);
      }
      log(`Webhooks: every event sent to ${receiver.url}`);
    }
    const floorPort = await freePort();
    const floor = await startServer({
      name: 'floor',
      nodeArgs: [...profileArgs, FLOOR_SCRIPT],
      env: {
        DATABASE_URL: url,
        PORT: String(floorPort),
        DATABASE_POOL_SIZE: '10',
        MEDIA_BASE_URL: BENCH_MEDIA_BASE_URL,
        ...profileEnv,
      },
      port: floorPort,
      logFile: join(options.workDir, 'floor.log'),
    });
    servers.push(floor);
    log(`Floor (Fastify + pg) serving at ${floor.baseUrl}, pid ${floor.pid}`);
    const peerPort = await freePort();
    const peer = await startServer({
      name: 'peer',
      nodeArgs: [PEER_SCRIPT],
      env: {
        DATABASE_URL: url,
        PORT: String(peerPort),
        DATABASE_POOL_SIZE: '10',
        MEDIA_BASE_URL: BENCH_MEDIA_BASE_URL,
        ...(options.redisUrl
          ? { REDIS_URL: options.redisUrl, REDIS_KEY_PREFIX: `${redisKeyPrefix}peer:` }
          : {}),
      },
      port: peerPort,
      logFile: join(options.workDir, 'peer.log'),
    });
    servers.push(peer);
    log(
      `Peer (conventional NestJS: throttler on ${options.redisUrl ? 'Redis' : 'memory'}, Prisma findMany, pino) serving at ${peer.baseUrl}, pid ${peer.pid}`,
    );

    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const wantsStaff = options.scenarios.includes('update');
    const staffHeaders = wantsStaff
      ? { ...headers, authorization: `Bearer ${await createBenchKey(url, 'staff')}` }
      : headers;
    for (const size of options.sizes) {
      const filledAt = Date.now();
      const count = await fillPets(url, size);
      log(
        `\n${count.toLocaleString('en-US')} pets (filled in ${((Date.now() - filledAt) / 1000).toFixed(1)} s)`,
      );
      const cursor = await deepCursor(url);
      const categoryId = await firstCategoryId(url);
      // The plans first, on the table as filled: the write scenarios below add hundreds of
      // thousands of animals without a profile at the top of the list, which no filter matches.
      for (const { request, statement } of planCasesFor(categoryId)) {
        const plan = await explainAnalyze(url, statement.sql, statement.values);
        plans.push({ size, request, plan });
      }
      const scenarios = [
        ...scenariosFor(cursor, categoryId),
        ...writeScenariosFor(url, categoryId, api.baseUrl, headers),
      ].filter((each) => options.scenarios.includes(each.id));
      const sizePeak: TReport['peakRssMb'][number] = { size, ours: 0, floor: 0 };
      for (const scenario of scenarios) {
        const scenarioHeaders = scenario.asStaff ? staffHeaders : headers;
        await scenario.setup?.();
        await checkScenario(
          scenario,
          scenario.withPeer ? [api, floor, peer] : [api, floor],
          scenarioHeaders,
        );
        const plan: TPlan | null = scenario.plan
          ? await explain(url, scenario.plan.sql, scenario.plan.values)
          : null;
        // A fresh process's first seconds (JIT, pools, lazy initialisation) are not its steady
        // state: the first run of each server warms up three times as long.
        const warmupSec = results.length === 0 ? options.warmupSec * 3 : options.warmupSec;
        const {
          ours,
          floor: floorResult,
          peer: peerResult,
        } = await measure(
          { ours: api, floor, peer: scenario.withPeer ? peer : undefined },
          scenario,
          scenarioHeaders,
          options,
          warmupSec,
          `${size}-${scenario.id}`,
        );
        const result: TRunResult = {
          size,
          scenario: scenario.id,
          request: scenario.request,
          ours,
          floor: floorResult,
          throughputRatio: ratio(ours.requestsPerSec, floorResult.requestsPerSec),
          p99Ratio: ratio(ours.latencyMs.p99, floorResult.latencyMs.p99),
          ...(peerResult
            ? {
                peer: peerResult,
                peerRatio: ratio(ours.requestsPerSec, peerResult.requestsPerSec),
                peerP99Ratio: ratio(ours.latencyMs.p99, peerResult.latencyMs.p99),
              }
            : {}),
          plan,
        };
        results.push(result);
        sizePeak.ours = Math.max(sizePeak.ours, ours.peakRssMb);
        sizePeak.floor = Math.max(sizePeak.floor, floorResult.peakRssMb);
        if (peerResult) {
          sizePeak.peer = Math.max(sizePeak.peer ?? 0, peerResult.peakRssMb);
        }
        const peerLine = peerResult
          ? ` | peer ${Math.round(peerResult.requestsPerSec)} req/s p99 ${peerResult.latencyMs.p99} ms, ours ÷ peer ${result.peerRatio?.toFixed(2)}×, CPU/req ${peerResult.cpuUsPerRequest} µs`
          : '';
        log(
          `  ${scenario.request.padEnd(38)} ours ${Math.round(ours.requestsPerSec)} req/s p99 ${ours.latencyMs.p99} ms | floor ${Math.round(floorResult.requestsPerSec)} req/s p99 ${floorResult.latencyMs.p99} ms | ${Math.round(result.throughputRatio * 100)}% | CPU/req ours ${ours.cpuUsPerRequest} µs, floor ${floorResult.cpuUsPerRequest} µs | API RSS ${ours.peakRssMb} MB${peerLine}`,
        );
      }
      peakRssMb.push(sizePeak);
    }
    if (receiver) {
      log(`Webhook deliveries received during the run: ${receiver.count()}`);
    }
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    process.removeListener('SIGHUP', onSignal);
    await cleanup();
  }

  return {
    kind: options.kind,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: {
      cores: availableParallelism(),
      cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
      memoryGb: Math.round(totalmem() / 1024 ** 3),
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      loadAverageAtStart,
      loadAverageAtEnd: Number((loadavg()[0] ?? 0).toFixed(2)),
    },
    database: database.label,
    rateLimits,
    settings: {
      connections: options.connections,
      durationSec: options.durationSec,
      warmupSec: options.warmupSec,
      sizes: options.sizes,
      tool: 'autocannon 9',
    },
    results,
    plans,
    peakRssMb,
    apiRssAtRestMb,
    targets: evaluateTargets(results, peakRssMb, options.sizes, database.mode, apiRssAtRestMb),
  };
};
