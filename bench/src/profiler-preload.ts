import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

/**
 * Preloaded (node -r) into the API and the floor by `pnpm bench --profile`: SIGUSR2 starts V8's CPU
 * profiler, the next SIGUSR2 stops it and writes BENCH_PROFILE_DIR/<pid>-<n>.cpuprofile. The
 * benchmark signals around each measured run, so a profile holds that run only: no start-up, no
 * warm-up, no idle time between runs.
 */
const directory = process.env.BENCH_PROFILE_DIR ?? '.';
const session = new Session();
session.connect();
let isProfiling = false;
let count = 0;

process.on('SIGUSR2', () => {
  if (!isProfiling) {
    isProfiling = true;
    session.post('Profiler.enable', () => session.post('Profiler.start'));
    return;
  }
  isProfiling = false;
  session.post('Profiler.stop', (error, result) => {
    count += 1;
    const file = join(directory, `${process.pid}-${count}.cpuprofile`);
    writeFileSync(`${file}.part`, error ? '{}' : JSON.stringify(result.profile));
    // Renamed when complete, so whoever waits for the file never reads half of it.
    renameSync(`${file}.part`, file);
  });
});
