#!/usr/bin/env node
// Prints how long each task of the newest turbo run took, from the run summary turbo writes with
// --summarize (.turbo/runs/<id>.json; `pnpm test` passes it): when each started after the run's
// start, how long it ran, and whether turbo replayed it from its cache. `.ci/run` prints it after
// `pnpm test`, pass or fail.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const say = (text) => process.stdout.write(`${text}\n`);

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = join(ROOT, '.turbo', 'runs');

const newest = () => {
  try {
    return readdirSync(RUNS)
      .filter((name) => name.endsWith('.json'))
      .map((name) => join(RUNS, name))
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  } catch {
    return undefined;
  }
};

const file = process.argv[2] ?? newest();
if (!file) {
  say(`No turbo run summary in ${RUNS}: run turbo with --summarize.`);
  process.exit(0);
}
const summary = JSON.parse(readFileSync(file, 'utf8'));
const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`.padStart(7);
const start = summary.execution.startTime;
const rows = summary.tasks
  .filter((task) => task.execution)
  .sort((a, b) => a.execution.startTime - b.execution.startTime)
  .map((task) => {
    const { startTime, endTime, exitCode } = task.execution;
    const cached = task.cache?.status === 'HIT' ? 'cached' : '';
    const failed = exitCode ? `exit ${exitCode}` : '';
    return `${seconds(startTime - start)} ${seconds(endTime - startTime)}  ${task.taskId} ${cached}${failed}`.trimEnd();
  });
say(`turbo: ${summary.execution.command}`);
say('  start   took   task');
say(rows.join('\n'));
say(`${seconds(0)} ${seconds(summary.execution.endTime - start)}  in all`);
