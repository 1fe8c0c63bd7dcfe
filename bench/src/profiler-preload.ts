import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

/**
 * Preloaded (node -r) into the API and the floor by `pnpm bench --profile` or `--alloc`: SIGUSR2
 * starts a V8 profiler, the next SIGUSR2 stops it and writes BENCH_PROFILE_DIR/<pid>-<n>.<kind>.
 * The benchmark signals around each measured run, so a profile holds that run only: no start-up,
 * no warm-up, no idle time between runs. BENCH_PROFILE_KIND says which profiler:
 *
 * - `cpuprofile` (default): the CPU profiler, where the main thread's time goes;
 * - `heapprofile`: the sampling heap profiler, where the bytes allocated go, counting the objects
 *   the collector has already freed (what makes the collector work), one sample per 16 KB on
 *   average. Unlike time, bytes per request do not depend on what else the machine is doing.
 *   With BENCH_PROFILE_PROMOTED=1 (`pnpm bench --promoted`), only the objects that survived the
 *   young generation's collections: what was promoted to the old generation, and by whom.
 */
const directory = process.env.BENCH_PROFILE_DIR ?? '.';
const kind = process.env.BENCH_PROFILE_KIND === 'heapprofile' ? 'heapprofile' : 'cpuprofile';
const isPromotedOnly = process.env.BENCH_PROFILE_PROMOTED === '1';
const session = new Session();
session.connect();
let isProfiling = false;
let count = 0;

const write = (profile: unknown) => {
  count += 1;
  const file = join(directory, `${process.pid}-${count}.${kind}`);
  writeFileSync(`${file}.part`, JSON.stringify(profile ?? {}));
  // Renamed when complete, so whoever waits for the file never reads half of it.
  renameSync(`${file}.part`, file);
};

process.on('SIGUSR2', () => {
  if (!isProfiling) {
    isProfiling = true;
    if (kind === 'cpuprofile') {
      session.post('Profiler.enable', () => session.post('Profiler.start'));
    } else {
      session.post('HeapProfiler.enable', () =>
        session.post('HeapProfiler.startSampling', {
          samplingInterval: 16_384,
          includeObjectsCollectedByMajorGC: true,
          includeObjectsCollectedByMinorGC: !isPromotedOnly,
        }),
      );
    }
    return;
  }
  isProfiling = false;
  if (kind === 'cpuprofile') {
    session.post('Profiler.stop', (error, result) => write(error ? null : result.profile));
  } else {
    session.post('HeapProfiler.stopSampling', (error, result) =>
      write(error ? null : result.profile),
    );
  }
});
