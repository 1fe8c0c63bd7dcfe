import autocannon from 'autocannon';

/**
 * The load generator, run as its own process so that it never shares an event loop (or a CPU
 * profile) with the servers it measures. Input: one JSON argument (TLoadSpec). Output: one JSON
 * line (TLoadOutput) on standard output.
 *
 * The targets (the API and the floor) take turns in short slices, in the order A B B A A B ...,
 * so that both see the same background: on a shared machine whatever else runs comes and goes
 * over seconds, and back-to-back runs of several seconds each would hand it to one side only. The
 * first `warmupSlices` slices of each target are not counted. Latencies are recorded from
 * autocannon's own per-response timer at full precision (its summary histogram rounds them down to
 * whole milliseconds).
 */

export type TLoadTarget = { name: string; url: string };

export type TLoadSpec = {
  targets: TLoadTarget[];
  method: 'GET' | 'POST' | 'PATCH';
  headers: Record<string, string>;
  body?: string;
  /**
   * Each request's path and body with `placeholder` replaced by the next number of [from, to],
   * across slices and targets: each used once (a new animal for each order placed), or in a
   * cycle (`cycle`: the animals renamed in turn).
   */
  sequence?: { placeholder: string; from: number; to: number; cycle?: boolean };
  /** A header given a value never sent before on each request (an Idempotency-Key). */
  uniqueHeader?: string;
  connections: number;
  sliceSec: number;
  /** Counted slices per target. */
  slices: number;
  /** Slices per target run first and not counted. */
  warmupSlices: number;
};

export type TLoadResult = {
  requests: number;
  durationSec: number;
  requestsPerSec: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
};

export type TLoadOutput = Record<string, TLoadResult>;

type TAccumulator = {
  latencies: number[];
  durationSec: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
};

const percentile = (sorted: Float64Array, p: number): number =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0);

const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

/** Where the sequence and the unique header values stand, for the whole of this process. */
let sequenceNext: number | undefined;
let uniqueCount = 0;
const uniquePrefix = `${process.pid}-${Date.now().toString(36)}`;

/** autocannon's per-request hook when a request must differ from the last (see TLoadSpec). */
const perRequest = (spec: TLoadSpec, url: string) => {
  const { sequence, uniqueHeader, body } = spec;
  const pathTemplate = decodeURI(new URL(url).pathname) + new URL(url).search;
  if (!sequence && !uniqueHeader) {
    return {};
  }
  return {
    requests: [
      {
        setupRequest: (request: {
          path?: string;
          body?: string;
          headers?: Record<string, string>;
        }) => {
          if (sequence) {
            sequenceNext ??= sequence.from;
            if (sequenceNext > sequence.to) {
              if (!sequence.cycle) {
                throw new Error('the sequence of this load is used up');
              }
              sequenceNext = sequence.from;
            }
            const value = String(sequenceNext);
            request.path = (pathTemplate ?? request.path)?.replace(sequence.placeholder, value);
            request.body = body?.replace(sequence.placeholder, value);
            sequenceNext += 1;
          }
          if (uniqueHeader) {
            uniqueCount += 1;
            request.headers = {
              ...request.headers,
              [uniqueHeader]: `${uniquePrefix}-${uniqueCount}`,
            };
          }
          return request;
        },
      },
    ],
  };
};

const slice = (spec: TLoadSpec, url: string) =>
  new Promise<{ result: autocannon.Result; latencies: number[] }>((resolve, reject) => {
    const latencies: number[] = [];
    const instance = autocannon(
      {
        url,
        method: spec.method,
        headers: spec.headers,
        ...(spec.body === undefined ? {} : { body: spec.body }),
        ...perRequest(spec, url),
        connections: spec.connections,
        duration: spec.sliceSec,
      } as autocannon.Options,
      (error, result) => (error ? reject(error) : resolve({ result, latencies })),
    );
    instance.on('response', (_client, _statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
    });
  });

const summarise = (total: TAccumulator): TLoadResult => {
  const sorted = Float64Array.from(total.latencies).sort();
  const sum = total.latencies.reduce((all, each) => all + each, 0);
  const requests = Object.values(total.statusCodes).reduce((all, count) => all + count, 0);
  return {
    requests,
    durationSec: round(total.durationSec, 3),
    requestsPerSec: round(total.durationSec > 0 ? requests / total.durationSec : 0, 1),
    latencyMs: {
      mean: round(sorted.length > 0 ? sum / sorted.length : 0),
      p50: round(percentile(sorted, 50)),
      p90: round(percentile(sorted, 90)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted[sorted.length - 1] ?? 0),
    },
    non2xx: total.non2xx,
    errors: total.errors,
    timeouts: total.timeouts,
    statusCodes: total.statusCodes,
  };
};

const MAX_EXTRA_SLICES = 5;

const answered = (total: TAccumulator) =>
  Object.values(total.statusCodes).reduce((all, each) => all + each, 0) + total.errors;

/** A B B A A B ...: over any two consecutive rounds, each target goes first once. */
const orderOf = <T>(targets: T[], round: number): T[] =>
  round % 2 === 0 ? targets : [...targets].reverse();

const main = async () => {
  const spec = JSON.parse(process.argv[2] ?? '{}') as TLoadSpec;
  const totals = new Map<string, TAccumulator>(
    spec.targets.map((target) => [
      target.name,
      { latencies: [], durationSec: 0, non2xx: 0, errors: 0, timeouts: 0, statusCodes: {} },
    ]),
  );
  const count = async (target: TLoadTarget, total: TAccumulator) => {
    const { result, latencies } = await slice(spec, target.url);
    for (const latency of latencies) {
      total.latencies.push(latency);
    }
    total.durationSec += result.duration;
    total.non2xx += result.non2xx;
    total.errors += result.errors;
    total.timeouts += result.timeouts;
    for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) {
      total.statusCodes[code] = (total.statusCodes[code] ?? 0) + Number(stats.count ?? 0);
    }
  };
  for (let round = 0; round < spec.warmupSlices + spec.slices; round += 1) {
    for (const target of orderOf(spec.targets, round)) {
      const total = totals.get(target.name);
      if (round < spec.warmupSlices || !total) {
        await slice(spec, target.url);
        continue;
      }
      await count(target, total);
    }
  }
  // A slice shorter than one answer (the smoke run's half second on a machine busy with the rest
  // of CI, CI saw a floor's first POST outlast it) measured nothing: run more until something
  // answers, a few at most, so that "no requests" still means the server did not answer.
  for (const target of spec.targets) {
    const total = totals.get(target.name);
    for (let extra = 0; total && extra < MAX_EXTRA_SLICES && answered(total) === 0; extra += 1) {
      await count(target, total);
    }
  }
  const output: TLoadOutput = Object.fromEntries(
    [...totals.entries()].map(([name, total]) => [name, summarise(total)]),
  );
  process.stdout.write(`${JSON.stringify(output)}\n`);
};

main().catch((error: unknown) => {
  process.stderr.write(`load generator failed: ${String(error)}\n`);
  process.exit(1);
});
