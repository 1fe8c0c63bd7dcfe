// Runs the data commands (`pnpm keys`, `pnpm db:migrate`, `pnpm db:seed`) from the compiled
// dist/cli, compiling just the command line and what it imports (tsconfig.cli.json) when dist is
// missing or one of those sources changed since, and generating the Prisma client first when it is
// missing or older than schema.prisma.
// Build output goes to standard error: standard output is the commands' own (a new key is its
// last line).
const { execFileSync } = require('node:child_process');
const {
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} = require('node:fs');
const { delimiter, join } = require('node:path');

const appRoot = join(__dirname, '..');
const repoRoot = join(appRoot, '..', '..');
const entry = join(appRoot, 'dist', 'cli', 'index.js');
const stamp = join(appRoot, 'dist', 'cli', '.built');
const buildLock = join(appRoot, 'dist', '.cli-build-lock');
const generatedClient = join(appRoot, 'src', 'generated', 'prisma', 'client.ts');
const schema = join(repoRoot, 'prisma', 'schema.prisma');

const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : 0);

/** The sources the last build compiled, recorded in the stamp file (one path a line). */
const compiledSources = () =>
  existsSync(stamp) ? readFileSync(stamp, 'utf8').split('\n').filter(Boolean) : [];

const isUpToDate = () => {
  const built = mtime(stamp);
  const sources = compiledSources();
  return (
    existsSync(entry) &&
    sources.length > 0 &&
    [...sources, join(appRoot, 'tsconfig.json'), join(appRoot, 'tsconfig.cli.json')].every(
      (path) => existsSync(path) && mtime(path) <= built,
    )
  );
};

const run = (args) =>
  execFileSync(process.execPath, args, {
    cwd: appRoot,
    stdio: ['ignore', 2, 2],
    // prisma-generate.cjs runs the `prisma` binary of the workspace.
    env: {
      ...process.env,
      PATH: [join(appRoot, 'node_modules', '.bin'), join(repoRoot, 'node_modules', '.bin')]
        .concat(process.env.PATH ?? '')
        .join(delimiter),
    },
  });

const build = () => {
  if (mtime(generatedClient) < mtime(schema)) {
    process.stderr.write('Generating the Prisma client...\n');
    run([join(appRoot, 'scripts', 'prisma-generate.cjs')]);
  }
  if (isUpToDate()) {
    return;
  }
  process.stderr.write('Compiling the command line (once after each change)...\n');
  const tsc = require.resolve('typescript/bin/tsc', { paths: [appRoot] });
  const startedAt = new Date();
  let output;
  try {
    output = execFileSync(
      process.execPath,
      [tsc, '-p', join(appRoot, 'tsconfig.cli.json'), '--listFiles'],
      { cwd: appRoot, stdio: ['ignore', 'pipe', 2], encoding: 'utf8' },
    );
  } catch (error) {
    const lines = String(error.stdout ?? '').split('\n');
    process.stderr.write(`${lines.filter((line) => !line.startsWith('/')).join('\n')}\n`);
    throw error;
  }
  const src = join(appRoot, 'src');
  const sources = output.split('\n').filter((line) => line.startsWith(src));
  writeFileSync(stamp, `${sources.join('\n')}\n`);
  // Sources saved while tsc ran are newer than what it read: date the stamp from the start.
  utimesSync(stamp, startedAt, startedAt);
};

/** Two commands started together after a change must not compile over each other. */
const withBuildLock = (work) => {
  mkdirSync(join(appRoot, 'dist'), { recursive: true });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(buildLock);
      break;
    } catch {
      if (Date.now() > deadline || Date.now() - mtime(buildLock) > 120_000) {
        rmSync(buildLock, { recursive: true, force: true });
        continue;
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  try {
    work();
  } finally {
    rmSync(buildLock, { recursive: true, force: true });
  }
};

try {
  withBuildLock(build);
} catch {
  process.stderr.write('error: could not build the command line (see the messages above)\n');
  process.exit(1);
}
require(entry);
