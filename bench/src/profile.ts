import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/**
 * Summarises a V8 CPU profile (node --cpu-prof, as written by `pnpm bench --profile`): where the
 * busy time goes, by package and by function, self and inclusive. Idle time is left out of the
 * shares, so the numbers say what a request costs, not how loaded the machine was. A heap profile
 * (`pnpm bench --alloc`, `.heapprofile`) is read the same way, bytes allocated in place of time.
 *
 *   node bench/dist/profile.js <file.cpuprofile|file.heapprofile> [--top 25] [--match <regex>]
 */

type TCallFrame = { functionName: string; url: string; lineNumber: number };
type TNode = { id: number; callFrame: TCallFrame; children?: number[] };
type TProfile = { nodes: TNode[]; samples: number[]; timeDeltas: number[] };
type THeapNode = { id: number; callFrame: TCallFrame; selfSize: number; children: THeapNode[] };

/**
 * A sampling heap profile in the CPU profile's shape, so that one summary serves both: each node
 * that allocated is one sample whose "time" is its bytes (summarise's milliseconds are then bytes).
 */
export const fromHeapProfile = (heap: { head: THeapNode }): TProfile => {
  const nodes: TNode[] = [];
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  const visit = (node: THeapNode) => {
    nodes.push({
      id: node.id,
      callFrame: node.callFrame,
      children: node.children.map((child) => child.id),
    });
    if (node.selfSize > 0) {
      samples.push(node.id);
      timeDeltas.push(node.selfSize * 1000);
    }
    for (const child of node.children) {
      visit(child);
    }
  };
  visit(heap.head);
  return { nodes, samples, timeDeltas };
};

/** A profile file of either kind, as summarise reads it. */
export const readProfile = (file: string): TProfile => {
  const parsed = JSON.parse(readFileSync(file, 'utf8'));
  return file.endsWith('.heapprofile') ? fromHeapProfile(parsed) : (parsed as TProfile);
};

/** The package a script belongs to: the last node_modules segment, node:internals, or ours. */
export const packageOf = ({ url, functionName }: TCallFrame): string => {
  if (url === '') {
    return functionName.startsWith('(') ? functionName : '(native)';
  }
  const modules = url.split('/node_modules/');
  if (modules.length > 1) {
    const rest = (modules[modules.length - 1] ?? '').split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) {
    return `node:${url.slice(5).split('/')[0]}`;
  }
  if (/\/bench\/(dist|src)\//.test(url)) {
    return 'ours:bench';
  }
  const app = /\/(apps|packages)\/([^/]+)\/(dist|src)\//.exec(url);
  return app ? `ours:${app[2]}` : url;
};

/**
 * What a package is for, from the point of view of one request. Ours are split by folder.
 * Node's own frames and native code are charged to the nearest caller that is not Node's.
 */
const BUCKETS: [string, RegExp][] = [
  [
    'rate limiter (ioredis + ours)',
    /^(ioredis|redis-parser|redis-errors|standard-as-callback|cluster-key-slot|denque|@ioredis\/.*)$|^ours:api\/rate-limit/,
  ],
  [
    'access log (pino)',
    /^(pino|sonic-boom|@pinojs\/.*|on-exit-leak-free|quick-format-unescaped|safe-stable-stringify|thread-stream|atomic-sleep)$|^ours:api\/logging/,
  ],
  ['API keys (ours)', /^ours:api\/(api-keys|auth|cache)\//],
  [
    'Nest + ts-rest + zod',
    /^(@nestjs\/.*|rxjs|reflect-metadata|iterare|tslib|@ts-rest\/.*|zod|uid|load-esm)$|^ours:(api\/http|contract)/,
  ],
  [
    'SQL (pg + ours)',
    /^(pg|pg-protocol|pg-pool|pg-types|pg-int8|postgres-.*|pgpass|@prisma\/.*)$|^ours:api\/(modules|database)/,
  ],
  [
    'HTTP (Fastify + Node)',
    /^(fastify|find-my-way|avvio|light-my-request|fast-json-stringify|fast-querystring|fast-uri|toad-cache|@fastify\/.*|process-warning|rfdc|secure-json-parse|abstract-logging)$|^ours:api\/(app|main)\.js$/,
  ],
  ["the floor's handler", /^ours:bench/],
];

const isNodes = (frame: TCallFrame) =>
  frame.url === '' || frame.url.startsWith('node:') || !frame.url.includes('/');

/** The bucket of the collector's samples (V8's own frame name). */
export const GC_BUCKET = '(garbage collector)';

/** The bucket of a sample: GC and the like by name, else the nearest non-Node frame's package. */
export const bucketOf = (stack: TCallFrame[]): string => {
  const leaf = stack[0];
  if (leaf && [GC_BUCKET, '(program)', '(idle)'].includes(leaf.functionName)) {
    return leaf.functionName;
  }
  const owner = stack.find((frame) => !isNodes(frame));
  if (!owner) {
    return 'Node (no caller of ours or a package)';
  }
  const pkg = packageOf(owner);
  const path = pkg.startsWith('ours:api')
    ? `ours:api/${/\/apps\/api\/(?:dist|src)\/([^/]+)/.exec(owner.url)?.[1] ?? ''}`
    : pkg;
  return BUCKETS.find(([, pattern]) => pattern.test(path))?.[0] ?? `other: ${path}`;
};

const label = (frame: TCallFrame): string => {
  const file = frame.url
    .split('/node_modules/')
    .pop()
    ?.replace(/^.*\/(apps|packages|bench)\//, '');
  return `${frame.functionName || '(anonymous)'} ${file ? `${file}:${frame.lineNumber + 1}` : ''}`.trim();
};

export type TProfileSummary = {
  busyMs: number;
  idleMs: number;
  byPackage: { name: string; selfMs: number; share: number }[];
  /** Self time charged to what the request was doing (see BUCKETS). */
  byBucket: { name: string; selfMs: number; share: number }[];
  bySelf: { name: string; selfMs: number; share: number }[];
  byInclusive: { name: string; totalMs: number; share: number }[];
};

export const summarise = (profile: TProfile, match?: RegExp): TProfileSummary => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) {
      parent.set(child, node.id);
    }
  }
  const packages = new Map<string, number>();
  const buckets = new Map<string, number>();
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let idleMs = 0;
  let busyMs = 0;
  profile.samples.forEach((id, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    const node = byId.get(id);
    if (!node) {
      return;
    }
    if (node.callFrame.functionName === '(idle)') {
      idleMs += ms;
      return;
    }
    const stack: TCallFrame[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame) {
        stack.push(frame);
      }
    }
    // The profiler writing its own profile (pnpm bench --profile) is not the server's work.
    if (stack.some((frame) => frame.url.endsWith('/profiler-preload.js'))) {
      return;
    }
    busyMs += ms;
    const pkg = packageOf(node.callFrame);
    packages.set(pkg, (packages.get(pkg) ?? 0) + ms);
    const name = label(node.callFrame);
    self.set(name, (self.get(name) ?? 0) + ms);
    const seen = new Set<string>();
    for (const frame of stack) {
      if (!match || match.test(label(frame))) {
        seen.add(label(frame));
      }
    }
    const bucket = bucketOf(stack);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + ms);
    for (const each of seen) {
      inclusive.set(each, (inclusive.get(each) ?? 0) + ms);
    }
  });
  const share = (ms: number) => (busyMs === 0 ? 0 : Number(((ms / busyMs) * 100).toFixed(1)));
  const ranked = (map: Map<string, number>) =>
    [...map.entries()].sort((a, b) => b[1] - a[1]).map(([name, ms]) => ({ name, ms }));
  return {
    busyMs: Math.round(busyMs),
    idleMs: Math.round(idleMs),
    byPackage: ranked(packages).map(({ name, ms }) => ({
      name,
      selfMs: Math.round(ms),
      share: share(ms),
    })),
    byBucket: ranked(buckets).map(({ name, ms }) => ({
      name,
      selfMs: Math.round(ms),
      share: share(ms),
    })),
    bySelf: ranked(self).map(({ name, ms }) => ({
      name,
      selfMs: Math.round(ms),
      share: share(ms),
    })),
    byInclusive: ranked(inclusive).map(({ name, ms }) => ({
      name,
      totalMs: Math.round(ms),
      share: share(ms),
    })),
  };
};

const main = () => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string', default: '25' }, match: { type: 'string' } },
  });
  const file = positionals[0];
  if (!file) {
    process.stderr.write(
      'usage: node bench/dist/profile.js <file.cpuprofile|file.heapprofile> [--top N] [--match regex]\n',
    );
    process.exit(2);
  }
  const top = Number(values.top);
  const isHeap = file.endsWith('.heapprofile');
  const summary = summarise(readProfile(file), values.match ? new RegExp(values.match) : undefined);
  const what = isHeap ? 'Bytes allocated' : 'Self time';
  const out: string[] = [
    isHeap
      ? `${file}: ${(summary.busyMs / 1048576).toFixed(1)} MB allocated (sampled), freed or not`
      : `${file}: busy ${summary.busyMs} ms, idle ${summary.idleMs} ms (shares are of busy time)`,
    '',
    `${what} by what the request was doing (Node and native code charged to their caller):`,
    ...summary.byBucket.map((each) => `  ${String(each.share).padStart(5)}%  ${each.name}`),
    '',
    `${what} by package:`,
    ...summary.byPackage
      .slice(0, top)
      .map((each) => `  ${String(each.share).padStart(5)}%  ${each.name}`),
    '',
    `${what} by function:`,
    ...summary.bySelf
      .slice(0, top)
      .map((each) => `  ${String(each.share).padStart(5)}%  ${each.name}`),
    '',
    `Inclusive ${isHeap ? 'bytes' : 'time'} by function${values.match ? ` matching /${values.match}/` : ''}:`,
    ...summary.byInclusive
      .slice(0, top)
      .map((each) => `  ${String(each.share).padStart(5)}%  ${each.name}`),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
};

if (require.main === module) {
  main();
}
