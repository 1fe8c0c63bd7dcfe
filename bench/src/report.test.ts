import { describe, expect, it } from 'vitest';
import { GC_BUCKET } from './profile';
import { evaluateTargets, type TMeasured, type TRunResult } from './report';

const measured = (requestsPerSec: number, p99: number, gcShare?: number): TMeasured => ({
  requests: requestsPerSec * 10,
  durationSec: 10,
  requestsPerSec,
  latencyMs: { mean: p99 / 2, p50: p99 / 2, p90: p99 / 1.2, p99, max: p99 * 2 },
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  statusCodes: { '200': requestsPerSec * 10 },
  peakRssMb: 200,
  cpuUsPerRequest: 400,
  ...(gcShare === undefined
    ? {}
    : {
        profile: {
          file: 'api.cpuprofile',
          unit: 'µs' as const,
          totalPerRequest: 400,
          buckets: [
            { name: 'SQL (pg + ours)', perRequest: 400 * (1 - gcShare) },
            { name: GC_BUCKET, perRequest: 400 * gcShare },
          ],
        },
      }),
});

const run = (scenario: TRunResult['scenario'], ours: TMeasured, floor: TMeasured): TRunResult => ({
  size: 10_000,
  scenario,
  request: scenario === 'create' ? 'POST /v1/pets' : 'GET /v1/pets?limit=20',
  ours,
  floor,
  throughputRatio: ours.requestsPerSec / floor.requestsPerSec,
  p99Ratio: ours.latencyMs.p99 / floor.latencyMs.p99,
  plan: null,
});

const verdicts = (results: TRunResult[], peakRssMb: number, database?: 'embedded') =>
  Object.fromEntries(
    evaluateTargets(
      results,
      [{ size: 10_000, ours: peakRssMb, floor: 100 }],
      [10_000],
      database,
      250,
    ).map((target) => [target.name, `${target.measured} ${target.isMet ? 'met' : 'missed'}`]),
  );

describe("the benchmark's targets (issue 30)", () => {
  it('meets the list at 60% of the floor with p99 1.5×, and misses it just below', () => {
    expect(
      verdicts(
        [
          run('list', measured(600, 30, 0.08), measured(1_000, 20)),
          run('create', measured(590, 30), measured(1_000, 20)),
        ],
        249,
      ),
    ).toEqual({
      'GET /v1/pets?limit=20 throughput, 10,000 pets': '60% met',
      'GET /v1/pets?limit=20 p99 latency, 10,000 pets': '1.50× (30 vs 20 ms) met',
      "GET /v1/pets?limit=20 collector's share of the API's CPU (--profile), 10,000 pets":
        '8.0% met',
      'POST /v1/pets throughput, 10,000 pets': '59% missed',
      'API peak memory (RSS) under load, PostgreSQL': '249 MB met',
    });
    expect(
      verdicts([run('list', measured(590, 31, 0.11), measured(1_000, 20))], 250),
    ).toMatchObject({
      'GET /v1/pets?limit=20 throughput, 10,000 pets': '59% missed',
      'GET /v1/pets?limit=20 p99 latency, 10,000 pets': '1.55× (31 vs 20 ms) missed',
      "GET /v1/pets?limit=20 collector's share of the API's CPU (--profile), 10,000 pets":
        '11.0% missed',
      'API peak memory (RSS) under load, PostgreSQL': '250 MB missed',
    });
  });

  it('gives the embedded database 450 MB under load and 300 at rest', () => {
    expect(verdicts([], 449, 'embedded')).toEqual({
      'API peak memory (RSS) under load, embedded database (in the API process)': '449 MB met',
      'API memory (RSS) at rest, embedded database': '250 MB met',
    });
  });
});
