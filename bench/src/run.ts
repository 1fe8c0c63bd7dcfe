import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { API_ENTRY } from './api-app';
import { runBench, type TBenchOptions } from './bench';
import { SCENARIO_IDS, type TReport, type TScenarioId, toMarkdown } from './report';
import { runSite } from './site/site-run';

const USAGE = `pnpm bench [options]

Starts the API's production build and the floor (bench/src/floor.ts) on a database of its own,
loads both from a second process and writes the comparison to bench/results/.

  DATABASE_URL   PostgreSQL server to create the benchmark's database on (dropped afterwards);
                 unset: an embedded database (PGlite) in a temporary directory
  REDIS_URL      Redis for the rate limiter (own key prefix, deleted afterwards);
                 unset: the API keeps its limits in memory

  --smoke              a few seconds on small data: proves the harness works, measures nothing
  --sizes 10000,1000000
  --only list,status,deep,profile,search,create,update,orders,place,idempotent
  --duration 10        seconds measured per server and request (in turns of 2 s)
  --warmup 4           seconds of discarded load per server before each measurement
  --connections 32
  --profile            CPU profiles of the API and the floor during each measured run, summarised
                       per request in the table (files in the output folder)
  --alloc              allocation profiles instead: KB allocated per request by what the request
                       was doing (freed objects included: the collector's work). Bytes, unlike
                       time, do not depend on the machine's load: use it to compare builds
  --promoted           allocation profiles of the objects that survived the young generation's
                       collections only: what each request leaves for the old generation
  --out <dir>          default bench/results
  --api <main.js>      another build of the API (e.g. a copy of apps/api/dist), to compare builds
  --api-env NAME=value an extra environment variable for the API (repeatable), e.g. LOG_LEVEL=warn
                       to see what the access log costs
  --webhooks           a webhook endpoint for every event, on a receiver of the benchmark's
                       (the API may send to the loopback): what deliveries cost the requests
  --site               the site instead (src/site/): Lighthouse 12, mobile defaults, on the stack
                       as \`pnpm start\` runs it; home, an animal, its apply form, staff sign-in
  --runs 3             Lighthouse runs per page with --site (the table gives medians)
`;

const SCENARIOS: TScenarioId[] = [...SCENARIO_IDS];
const FULL = { sizes: [10_000, 1_000_000], durationSec: 10, warmupSec: 4, connections: 32 };
const SMOKE = { sizes: [500, 2_000], durationSec: 0.5, warmupSec: 0, connections: 32 };

const numbers = (text: string): number[] =>
  text.split(',').map((each) => {
    const value = Number(each.replaceAll('_', ''));
    if (!Number.isInteger(value) || value < 1) {
      throw new Error(`not a positive whole number: ${each}`);
    }
    return value;
  });

const main = async () => {
  // Output piped into a command that stops reading (| head) must not end the run before it has
  // stopped its servers and dropped its database.
  process.stdout.on('error', () => {});
  const { values } = parseArgs({
    options: {
      smoke: { type: 'boolean', default: process.env.BENCH_SMOKE === '1' },
      sizes: { type: 'string' },
      only: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      profile: { type: 'boolean', default: false },
      alloc: { type: 'boolean', default: false },
      promoted: { type: 'boolean', default: false },
      out: { type: 'string' },
      api: { type: 'string' },
      'api-env': { type: 'string', multiple: true },
      webhooks: { type: 'boolean', default: false },
      site: { type: 'boolean', default: false },
      runs: { type: 'string', default: '3' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (values.site) {
    const [runs] = numbers(values.runs);
    await runSite({
      runs: runs ?? 3,
      outDir: resolve(values.out ?? join(__dirname, '..', 'results')),
      log: (line) => process.stdout.write(`${line}\n`),
    });
    return;
  }
  const isAlloc = values.alloc || values.promoted;
  if (values.profile && isAlloc) {
    throw new Error('--profile and --alloc (or --promoted) each need their own run');
  }
  const base = values.smoke ? SMOKE : FULL;
  const scenarios = values.only ? (values.only.split(',') as TScenarioId[]) : SCENARIOS;
  const unknown = scenarios.filter((each) => !SCENARIOS.includes(each));
  if (unknown.length > 0) {
    throw new Error(`unknown scenario ${unknown.join(', ')}: use ${SCENARIOS.join(', ')}`);
  }
  const sizes = values.sizes ? numbers(values.sizes) : base.sizes;
  const durationSec = values.duration ? Number(values.duration) : base.durationSec;
  const warmupSec = values.warmup ? Number(values.warmup) : base.warmupSec;
  const connections = values.connections ? Number(values.connections) : base.connections;
  const isFull =
    !values.smoke &&
    !values.profile &&
    !isAlloc &&
    !values.api &&
    !values['api-env'] &&
    !values.webhooks &&
    scenarios.length === SCENARIOS.length &&
    sizes.join() === FULL.sizes.join() &&
    durationSec === FULL.durationSec &&
    warmupSec === FULL.warmupSec &&
    connections === FULL.connections;
  const kind: TReport['kind'] = values.smoke ? 'smoke' : isFull ? 'full' : 'partial';
  const outDir = resolve(values.out ?? join(__dirname, '..', 'results'));
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  const runDir = join(outDir, 'runs', `${stamp}-${kind}`);
  await mkdir(runDir, { recursive: true });

  const options: TBenchOptions = {
    kind,
    sizes,
    scenarios,
    connections,
    durationSec,
    warmupSec,
    profileDir: values.profile || isAlloc ? join(runDir, 'profiles') : null,
    profileKind: isAlloc ? 'heapprofile' : 'cpuprofile',
    promotedOnly: values.promoted,
    workDir: runDir,
    databaseUrl: process.env.DATABASE_URL || undefined,
    redisUrl: process.env.REDIS_URL || undefined,
    apiEntry: values.api ? resolve(values.api) : API_ENTRY,
    webhooks: values.webhooks,
    apiEnv: Object.fromEntries(
      [
        ...(values.webhooks
          ? ['WEBHOOK_ALLOW_HTTP=true', 'WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true']
          : []),
        ...(values['api-env'] ?? []),
      ].map((each) => {
        const at = each.indexOf('=');
        if (at < 1) {
          throw new Error(`--api-env wants NAME=value, not ${each}`);
        }
        return [each.slice(0, at), each.slice(at + 1)];
      }),
    ),
    log: (line) => process.stdout.write(`${line}\n`),
  };
  options.log(
    `Benchmark (${kind}): ${sizes.map((each) => each.toLocaleString('en-US')).join(' then ')} pets, ${connections} connections, ${durationSec} s per run after ${warmupSec} s of warm-up.`,
  );
  const report = await runBench(options);
  const markdown = toMarkdown(report);
  const json = `${JSON.stringify(report, null, 2)}\n`;
  await writeFile(join(runDir, 'results.json'), json);
  await writeFile(join(runDir, 'results.md'), markdown);
  await writeFile(join(outDir, `latest-${kind}.json`), json);
  await writeFile(join(outDir, `latest-${kind}.md`), markdown);
  if (kind === 'full') {
    await writeFile(
      join(outDir, 'README.md'),
      `# Latest full benchmark run\n\nWritten by \`pnpm bench\` (see [../README.md](../README.md) for how to run it and how to read this). Ratios are ours ÷ the floor's.\n\n${markdown}`,
    );
  }
  process.stdout.write(`\n${markdown}\nWritten to ${runDir}\n`);
  if (options.profileDir) {
    process.stdout.write(
      `${options.profileKind === 'heapprofile' ? 'Allocation' : 'CPU'} profiles in ${options.profileDir}; details of one: node bench/dist/profile.js <file>\n`,
    );
  }
};

main().catch((error: unknown) => {
  process.stderr.write(
    `pnpm bench failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
