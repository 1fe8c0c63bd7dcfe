// Builds what a root command needs, with turbo, and only when something changed.
//
// `turbo run build` replays its cache on every run, rewriting each package's dist/ even when nothing
// changed; under `pnpm dev` that rewrite is a change for the API's file watcher, which restarted
// the API each time a CLI command (`pnpm keys ...`) ran. So turbo is asked first, with --dry, which
// tasks would run: when every one is a cache hit whose outputs are on disk, nothing is run and
// nothing is written. Otherwise the build runs, and says which steps are running and how far it
// got: turbo runs independent steps at once (the API and the site build side by side), so the
// steps running are those whose dependencies are done and that are not done themselves. Turbo
// prints a step's output as one group when the step ends (--log-order=grouped): that is how this
// knows a step is done.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Turbo without its telemetry notice and update check, whoever calls it. */
export const TURBO_ENV = {
  TURBO_TELEMETRY_DISABLED: '1',
  TURBO_NO_UPDATE_NOTIFIER: '1',
  DO_NOT_TRACK: '1',
  NEXT_TELEMETRY_DISABLED: '1',
};

const turboBin = (root) => join(root, 'node_modules', 'turbo', 'bin', 'turbo');

/**
 * The first build from a fresh clone (no turbo cache, nothing built), as measured on a two-core
 * machine that other builds shared (188 s and 547 s): README.md says the same of the first start.
 */
export const FIRST_BUILD_TIME = 'the first build takes 3 to 9 minutes on two cores';

/** The turbo processes running now, for stopBuild(). */
const running = new Set();

/** Stops a build under way (a Ctrl-C reaches it anyway; a SIGTERM to our process alone does not). */
export const stopBuild = () => {
  for (const child of running) {
    child.kill('SIGTERM');
  }
};

/** Runs turbo; resolves with its exit code and stdout (its stderr is ours unless `quiet`). */
const turbo = (root, args, { onLine, quiet = false } = {}) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [turboBin(root), ...args], {
      cwd: root,
      env: { ...process.env, ...TURBO_ENV, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', quiet ? 'ignore' : 'inherit'],
    });
    running.add(child);
    child.on('close', () => running.delete(child));
    let stdout = '';
    let pending = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        onLine?.(line);
      }
    });
    child.on('error', () => resolve({ code: 1, stdout }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), stdout }));
  });

/** The top folders a task's output globs name: "dist/**" -> "dist". */
const outputFolders = (outputs) =>
  outputs.filter((glob) => !glob.startsWith('!')).map((glob) => glob.split('/')[0]);

/** turbo's task id as its output names it: "@pets/api#build" -> "@pets/api:build". */
const stepName = (taskId) => taskId.replace('#', ':');

/**
 * The tasks `turbo run build <filters>` would run (those with a command), their cache state, and
 * the steps each waits for (its dependencies that have a command; the others are no work).
 */
export const plannedTasks = async (root, filters) => {
  const { code, stdout } = await turbo(root, ['run', 'build', ...filters, '--dry=json'], {
    quiet: true,
  });
  if (code !== 0) {
    return null;
  }
  try {
    const tasks = JSON.parse(stdout).tasks.filter(
      (task) => task.command && task.command !== '<NONEXISTENT>',
    );
    const ids = new Set(tasks.map((task) => task.taskId));
    return tasks.map((task) => ({
      id: stepName(task.taskId),
      after: (task.dependencies ?? []).filter((id) => ids.has(id)).map(stepName),
      isCached: task.cache?.status === 'HIT',
      hasOutputs: outputFolders(task.outputs ?? []).some((folder) =>
        existsSync(join(root, task.directory, folder)),
      ),
    }));
  } catch {
    return null;
  }
};

/** The steps running once `done` are done: not done, and every step they wait for is. */
export const runningSteps = (tasks, done) =>
  tasks
    .filter((task) => !done.has(task.id) && task.after.every((step) => done.has(step)))
    .map((task) => task.id);

/** "a", "a and b", "a, b and c". */
const inWords = (names) =>
  names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/**
 * The build's progress lines, from turbo's grouped output: `finished(line)` reads one line and
 * answers the line to print when it ends a step; `heartbeat()` says what is still running.
 */
export const buildProgress = (tasks, seconds) => {
  const done = new Set();
  const total = tasks?.length ?? 0;
  const running = () => (tasks ? runningSteps(tasks, done) : []);
  return {
    started: () => {
      const now = running();
      return now.length > 0 ? `build: building ${inWords(now)}.` : null;
    },
    finished: (line) => {
      // "@pets/api:build: cache miss, executing 0ef9..." heads a step's group, printed at its end.
      const step = /^(\S+?:\w+): cache (hit|miss|bypass)/.exec(line.trim());
      if (!step?.[1] || done.has(step[1])) {
        return null;
      }
      done.add(step[1]);
      const how = step[2] === 'hit' ? 'from the cache' : 'built';
      const now = running();
      const next = now.length > 0 ? `; building ${inWords(now)}` : '';
      return `build ${done.size}/${total || '?'}: ${step[1]} ${how} (${seconds()} s so far)${next}.`;
    },
    heartbeat: () => {
      const now = running();
      return now.length > 0
        ? `build: still building ${inWords(now)} (${seconds()} s so far).`
        : `build: still building (${seconds()} s so far).`;
    },
  };
};

/**
 * Builds `filters` (turbo --filter arguments) unless everything is already built. `log` gets the
 * progress lines; resolves true when the build is there, false when it failed.
 */
export const ensureBuilt = async ({ root, filters, log, quietWhenUpToDate = false }) => {
  const tasks = await plannedTasks(root, filters);
  if (tasks?.every((task) => task.isCached && task.hasOutputs)) {
    if (!quietWhenUpToDate) {
      log(`build: up to date (${tasks.length} steps).`);
    }
    return true;
  }
  const total = tasks?.length ?? 0;
  const toDo = tasks?.filter((task) => !(task.isCached && task.hasOutputs)).length ?? total;
  log(`build: ${toDo} of ${total} steps to run (${FIRST_BUILD_TIME}; later ones reuse it).`);
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  const progress = buildProgress(tasks, seconds);
  const first = progress.started();
  if (first) {
    log(first);
  }
  // The builds' own output, shown only when one fails (turbo --output-logs=new-only).
  const output = [];
  const heartbeat = setInterval(() => log(progress.heartbeat()), 15_000);
  heartbeat.unref();
  const { code } = await turbo(
    root,
    ['run', 'build', ...filters, '--output-logs=new-only', '--log-order=grouped'],
    {
      onLine: (line) => {
        output.push(line);
        if (output.length > 80) {
          output.shift();
        }
        const ended = progress.finished(line);
        if (ended) {
          log(ended);
        }
      },
    },
  );
  clearInterval(heartbeat);
  if (code !== 0) {
    process.stderr.write(`${output.join('\n')}\n`);
    log(`build failed (turbo exit code ${code}); the end of its output is above.`);
    return false;
  }
  log(`build: done in ${seconds()} s.`);
  return true;
};
