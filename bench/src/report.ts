import type { TAnalyzedPlan, TPlan } from './data';
import type { TLoadResult } from './load';
import { GC_BUCKET } from './profile';

/** Every request the benchmark can load, in the order a run takes them (`--only` picks some). */
export const SCENARIO_IDS = [
  'list',
  'status',
  'deep',
  'profile',
  'search',
  'create',
  'update',
  'orders',
  'place',
  'idempotent',
] as const;
export type TScenarioId = (typeof SCENARIO_IDS)[number];

/**
 * Where a server's CPU time (pnpm bench --profile, µs) or its allocations (--alloc, KB) went during
 * a measured run, per request.
 */
export type TProfileAttribution = {
  file: string;
  unit: 'µs' | 'KB';
  totalPerRequest: number;
  buckets: { name: string; perRequest: number }[];
};

export type TMeasured = TLoadResult & {
  /** Largest RSS of the server process sampled during this run's warm-up and measurement. */
  peakRssMb: number;
  /** CPU time (user + system) of the server process per request of the measured run. */
  cpuUsPerRequest: number | null;
  profile?: TProfileAttribution;
};

export type TRunResult = {
  size: number;
  scenario: TScenarioId;
  request: string;
  ours: TMeasured;
  floor: TMeasured;
  /** Ours ÷ floor requests per second. */
  throughputRatio: number;
  /** Ours ÷ floor p99 latency. */
  p99Ratio: number;
  /** The conventional NestJS peer (peer.ts), on the requests it serves (the lists). */
  peer?: TMeasured;
  /** Ours ÷ peer requests per second. */
  peerRatio?: number;
  /** Ours ÷ peer p99 latency. */
  peerP99Ratio?: number;
  plan: TPlan | null;
};

/** A request whose plan is shown without load (EXPLAIN ANALYZE): filters, search, count. */
export type TPlanRow = { size: number; request: string; plan: TAnalyzedPlan };

export type TTarget = { name: string; target: string; measured: string; isMet: boolean };

export type TReport = {
  kind: 'full' | 'partial' | 'smoke';
  startedAt: string;
  finishedAt: string;
  machine: {
    cores: number;
    cpu: string;
    memoryGb: number;
    node: string;
    platform: string;
    loadAverageAtStart: number;
    loadAverageAtEnd: number;
  };
  database: string;
  rateLimits: string;
  settings: {
    connections: number;
    durationSec: number;
    warmupSec: number;
    sizes: number[];
    tool: string;
  };
  results: TRunResult[];
  /** Plans of the profile filters, the name search and the count. */
  plans: TPlanRow[];
  /** Largest RSS of each process over all runs at a size. */
  peakRssMb: { size: number; ours: number; floor: number; peer?: number }[];
  /** The API's RSS once started and idle, before any data or load (the embedded database in it). */
  apiRssAtRestMb: number;
  targets: TTarget[];
};

const round = (value: number, digits = 2) => Number(value.toFixed(digits));
const percent = (ratio: number) => `${Math.round(ratio * 100)}%`;
const times = (ratio: number) => `${ratio.toFixed(2)}×`;
const count = (value: number) => value.toLocaleString('en-US');

export const ratio = (a: number, b: number) => (b === 0 ? 0 : round(a / b, 3));

/**
 * The targets of issue 30, checked against the measurements (for 2-core machines; issue 17's
 * stricter goals, 80% of the floor with p99 1.3× for the list and 70% for POST, are beyond them).
 * The memory goal depends on the database: the embedded one (PGlite) lives in the API's process.
 */
export const evaluateTargets = (
  results: TRunResult[],
  peakRss: TReport['peakRssMb'],
  sizes: number[],
  database: 'postgresql' | 'embedded' = 'postgresql',
  rssAtRestMb = 0,
): TTarget[] => {
  const targets: TTarget[] = [];
  const of = (scenario: TScenarioId) => results.filter((each) => each.scenario === scenario);
  for (const each of of('list')) {
    targets.push({
      name: `GET /v1/pets?limit=20 throughput, ${count(each.size)} pets`,
      target: '≥ 60% of the floor',
      measured: percent(each.throughputRatio),
      isMet: each.throughputRatio >= 0.6,
    });
    targets.push({
      name: `GET /v1/pets?limit=20 p99 latency, ${count(each.size)} pets`,
      target: '≤ 1.5× the floor',
      measured: `${times(each.p99Ratio)} (${each.ours.latencyMs.p99} vs ${each.floor.latencyMs.p99} ms)`,
      isMet: each.p99Ratio <= 1.5,
    });
    const profile = each.ours.profile;
    if (profile?.unit === 'µs' && profile.totalPerRequest > 0) {
      const collector = profile.buckets.find((bucket) => bucket.name === GC_BUCKET);
      const share = (collector?.perRequest ?? 0) / profile.totalPerRequest;
      targets.push({
        name: `GET /v1/pets?limit=20 collector's share of the API's CPU (--profile), ${count(each.size)} pets`,
        target: '≤ 10%',
        measured: `${(share * 100).toFixed(1)}%`,
        isMet: share <= 0.1,
      });
    }
  }
  for (const each of of('list')) {
    if (each.peerRatio !== undefined && each.peer) {
      targets.push({
        name: `GET /v1/pets?limit=20 throughput against the conventional NestJS peer, ${count(each.size)} pets`,
        target: '≥ 1.8× the peer',
        measured: `${times(each.peerRatio)} (${count(Math.round(each.ours.requestsPerSec))} vs ${count(Math.round(each.peer.requestsPerSec))} req/s)`,
        isMet: each.peerRatio >= 1.8,
      });
    }
  }
  for (const each of of('status')) {
    targets.push({
      name: `GET /v1/pets?status=sold&limit=100 throughput, ${count(each.size)} pets`,
      target: '≥ 70% of the floor',
      measured: percent(each.throughputRatio),
      isMet: each.throughputRatio >= 0.7,
    });
  }
  for (const each of of('create')) {
    targets.push({
      name: `POST /v1/pets throughput, ${count(each.size)} pets`,
      target: '≥ 60% of the floor',
      measured: percent(each.throughputRatio),
      isMet: each.throughputRatio >= 0.6,
    });
  }
  const smallest = Math.min(...sizes);
  const largest = Math.max(...sizes);
  if (largest > smallest) {
    for (const scenario of ['deep', 'status'] as const) {
      const small = of(scenario).find((each) => each.size === smallest);
      const large = of(scenario).find((each) => each.size === largest);
      if (!small || !large) {
        continue;
      }
      const slowdown = ratio(small.ours.requestsPerSec, large.ours.requestsPerSec);
      const p99Growth = ratio(large.ours.latencyMs.p99, small.ours.latencyMs.p99);
      targets.push({
        name: `${large.request} at ${count(largest)} vs ${count(smallest)} pets`,
        target: 'within 1.5× (req/s and p99)',
        measured: `req/s ÷ ${times(slowdown)}, p99 × ${times(p99Growth)}`,
        isMet: slowdown <= 1.5 && p99Growth <= 1.5,
      });
    }
  }
  const worstRss = Math.max(...peakRss.map((each) => each.ours));
  const rssGoal = database === 'embedded' ? 450 : 250;
  targets.push({
    name: `API peak memory (RSS) under load, ${database === 'embedded' ? 'embedded database (in the API process)' : 'PostgreSQL'}`,
    target: `< ${rssGoal} MB`,
    measured: `${worstRss} MB`,
    isMet: worstRss < rssGoal,
  });
  if (database === 'embedded') {
    targets.push({
      name: 'API memory (RSS) at rest, embedded database',
      target: '< 300 MB',
      measured: `${rssAtRestMb} MB`,
      isMet: rssAtRestMb < 300,
    });
  }
  const plans = results.filter((each) => each.plan !== null);
  if (plans.length > 0) {
    const bad = plans.filter((each) => !each.plan?.isIndexOnly);
    targets.push({
      name: 'Query plans of the lists',
      target: 'one index scan: no Seq Scan, Sort, COUNT or OFFSET',
      measured:
        bad.length === 0
          ? 'all index scans'
          : bad.map((each) => `${each.request}: ${each.plan?.summary}`).join('; '),
      isMet: bad.length === 0,
    });
  }
  return targets;
};

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
export const toMb = mb;

/**
 * With --profile: the main thread's CPU per request of each run, by what it was doing; with
 * --alloc: the bytes it allocated.
 */
const profileSection = (results: TRunResult[]): string[] => {
  const profiled = results.filter((each) => each.ours.profile && each.floor.profile);
  const unit = profiled[0]?.ours.profile?.unit;
  if (unit === undefined) {
    return [];
  }
  const lines: string[] = [
    unit === 'µs'
      ? 'CPU profiles of the measured runs (V8 sampling, main thread), in µs per request; Node and native code are charged to the package that called them:'
      : 'Allocation profiles of the measured runs (V8 sampling heap profiler, objects already freed included), in KB allocated per request; Node and native code are charged to the package that called them:',
    '',
  ];
  for (const each of profiled) {
    const ours = each.ours.profile as TProfileAttribution;
    const floor = each.floor.profile as TProfileAttribution;
    const names = [...new Set([...ours.buckets, ...floor.buckets].map((bucket) => bucket.name))];
    const of = (profile: TProfileAttribution, name: string) =>
      profile.buckets.find((bucket) => bucket.name === name)?.perRequest ?? 0;
    lines.push(
      `| ${count(each.size)} pets, \`${each.request}\` | API ${unit} | Floor ${unit} |`,
      '|---|---:|---:|',
      ...names
        .filter((name) => of(ours, name) + of(floor, name) >= (unit === 'µs' ? 1 : 0.1))
        .map((name) => `| ${name} | ${of(ours, name)} | ${of(floor, name)} |`),
      `| **${unit === 'µs' ? 'busy' : 'allocated'} per request** | **${ours.totalPerRequest}** | **${floor.totalPerRequest}** |`,
      '',
    );
  }
  return lines;
};

/** The results as Markdown: the table of runs, the targets, the query plans. */
export const toMarkdown = (report: TReport): string => {
  const { machine, settings } = report;
  const hasPeer = report.results.some((each) => each.peer);
  const peerCells = (each: TRunResult) =>
    !hasPeer
      ? ''
      : each.peer && each.peerRatio !== undefined
        ? ` ${count(Math.round(each.peer.requestsPerSec))} | ${times(each.peerRatio)} | ${each.peer.latencyMs.p99} | ${each.peer.cpuUsPerRequest ?? '?'} |`
        : ' – | – | – | – |';
  const lines = [
    `Measured ${report.startedAt.slice(0, 16).replace('T', ' ')} UTC on ${machine.cores} cores (${machine.cpu}), ${machine.memoryGb} GB, Node ${machine.node}, ${machine.platform}.`,
    `Database: ${report.database}. Rate limits: ${report.rateLimits}.`,
    `Load: ${settings.tool}, from its own process, ${settings.connections} connections, ${settings.durationSec} s per server and request after ${settings.warmupSec} s of warm-up, the API and the floor${hasPeer ? ' (and the conventional NestJS peer, on the lists)' : ''} taking turns in slices of up to 2 s. Load average (1 min) ${machine.loadAverageAtStart} at the start, ${machine.loadAverageAtEnd} at the end.`,
    '',
    `| Pets | Request | Ours req/s | Floor req/s | Ours ÷ floor | Ours p50 / p99 (ms) | Floor p50 / p99 (ms) | p99 ours ÷ floor | CPU per request, ours / floor (µs) |${hasPeer ? ' Peer req/s | Ours ÷ peer | Peer p99 (ms) | Peer CPU per request (µs) |' : ''}`,
    `|---:|---|---:|---:|---:|---:|---:|---:|---:|${hasPeer ? '---:|---:|---:|---:|' : ''}`,
    ...report.results.map(
      (each) =>
        `| ${count(each.size)} | \`${each.request}\` | ${count(Math.round(each.ours.requestsPerSec))} | ${count(Math.round(each.floor.requestsPerSec))} | ${percent(each.throughputRatio)} | ${each.ours.latencyMs.p50} / ${each.ours.latencyMs.p99} | ${each.floor.latencyMs.p50} / ${each.floor.latencyMs.p99} | ${times(each.p99Ratio)} | ${each.ours.cpuUsPerRequest ?? '?'} / ${each.floor.cpuUsPerRequest ?? '?'} |${peerCells(each)}`,
    ),
    '',
    `Peak RSS under load (sampled every 100 ms): ${report.peakRssMb
      .map(
        (each) =>
          `${count(each.size)} pets: API ${each.ours} MB, floor ${each.floor} MB${each.peer === undefined ? '' : `, peer ${each.peer} MB`}`,
      )
      .join('; ')}. API at rest (started, before any load): ${report.apiRssAtRestMb} MB.`,
    '',
    '| Target | Goal | Measured | Met |',
    '|---|---|---|:---:|',
    ...report.targets.map(
      (each) =>
        `| ${each.name} | ${each.target} | ${each.measured} | ${each.isMet ? 'yes' : '**no**'} |`,
    ),
    '',
    ...profileSection(report.results),
    '| Pets | Request | Plan (EXPLAIN) |',
    '|---:|---|---|',
    ...report.results
      .filter((each) => each.plan !== null)
      .map((each) => `| ${count(each.size)} | \`${each.request}\` | ${each.plan?.summary} |`),
    ...(report.plans.length > 0
      ? [
          '',
          'The profile filters, the name search and the total count, run once each with EXPLAIN ANALYZE (no load): the rows the scans of pets read, kept or filtered out, and the time PostgreSQL reports.',
          '',
          '| Pets | Request | Plan (EXPLAIN ANALYZE) | Rows read | Time (ms) |',
          '|---:|---|---|---:|---:|',
          ...report.plans.map(
            (each) =>
              `| ${count(each.size)} | \`${each.request}\` | ${each.plan.summary} | ${count(each.plan.rowsRead)} | ${each.plan.executionMs} |`,
          ),
        ]
      : []),
  ];
  return `${lines.join('\n')}\n`;
};
