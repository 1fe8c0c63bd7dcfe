import autocannon from 'autocannon';

/**
 * The load generator, run as its own process so that it never shares an event loop (or a CPU
 * profile) with the server it measures. Input: one JSON argument (TLoadSpec). Output: one JSON
 * line (TLoadResult) on standard output.
 *
 * Latencies are recorded from autocannon's own per-response timer at full precision (its summary
 * histogram rounds them down to whole milliseconds).
 */

export type TLoadSpec = {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  durationSec: number;
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

const percentile = (sorted: Float64Array, p: number): number =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0);

const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

const run = (spec: TLoadSpec, durationSec: number) =>
  new Promise<{ result: autocannon.Result; latencies: number[] }>((resolve, reject) => {
    const latencies: number[] = [];
    const instance = autocannon(
      {
        url: spec.url,
        method: spec.method,
        headers: spec.headers,
        ...(spec.body === undefined ? {} : { body: spec.body }),
        connections: spec.connections,
        duration: durationSec,
      },
      (error, result) => (error ? reject(error) : resolve({ result, latencies })),
    );
    instance.on('response', (_client, _statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
    });
  });

const main = async () => {
  const spec = JSON.parse(process.argv[2] ?? '{}') as TLoadSpec;
  const { result, latencies } = await run(spec, spec.durationSec);
  const sorted = Float64Array.from(latencies).sort();
  const sum = latencies.reduce((total, each) => total + each, 0);
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [
      code,
      Number(stats.count),
    ]),
  );
  const requests = Object.values(statusCodes).reduce((total, count) => total + count, 0);
  const output: TLoadResult = {
    requests,
    durationSec: round(result.duration, 3),
    requestsPerSec: round(requests / result.duration, 1),
    latencyMs: {
      mean: round(latencies.length > 0 ? sum / latencies.length : 0),
      p50: round(percentile(sorted, 50)),
      p90: round(percentile(sorted, 90)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted[sorted.length - 1] ?? 0),
    },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
  };
  process.stdout.write(`${JSON.stringify(output)}\n`);
};

main().catch((error: unknown) => {
  process.stderr.write(`load generator failed: ${String(error)}\n`);
  process.exit(1);
});
