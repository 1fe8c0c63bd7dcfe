import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, probeHttp, runProcess, startProcess } from '@pets/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { parseStackConfig, StackConfigError } from './stack-config.mjs';

// `pnpm dev` and `pnpm start` as a person runs them: a fresh data folder, the real API on the
// embedded database, the real site, a CLI command meanwhile, then a stop by Ctrl-C (SIGINT to the
// whole process group, as a terminal sends it) or by `kill <pnpm's pid>` (SIGTERM to pnpm alone).

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const folders = [];
const stacks = [];

afterEach(async () => {
  // A failed test still stops its stack the way a person would (SIGTERM to pnpm and run-stack),
  // so that nothing of it outlives the test.
  for (const stack of stacks.splice(0)) {
    if (!stack.hasExited()) {
      await stack.stop(20_000);
    }
  }
  for (const folder of folders.splice(0)) {
    rmSync(folder, { recursive: true, force: true });
  }
});

const freshDataDir = () => {
  const folder = mkdtempSync(join(tmpdir(), 'pets-stack-'));
  folders.push(folder);
  return folder;
};

/** Every process whose environment has DATA_DIR=dataDir: what the stack started, and leftovers. */
const processesUsing = (dataDir) =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8')
          .split('\0')
          .includes(`DATA_DIR=${dataDir}`);
      } catch {
        return false;
      }
    })
    .map(Number);

const waitUntil = async (check, timeoutMs) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
};

/** Whether `url` answers `status` within a minute (a first visit may be slow). */
const answers = (url, status) =>
  waitUntil(
    async () => (await probeHttp(url, { signal: AbortSignal.timeout(30_000) })) === status,
    60_000,
  );

/** Starts `pnpm <script>` on fresh ports and a fresh data folder; resolves once both answer. */
const startStack = async (script) => {
  const [apiPort, webPort] = [await freePort(), await freePort()];
  const dataDir = freshDataDir();
  const env = {
    ...process.env,
    PORT: String(apiPort),
    WEB_PORT: String(webPort),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    WEB_API_KEY: '',
    SESSION_SECRET: '',
    API_URL: '',
  };
  const stack = startProcess({
    name: `pnpm ${script}`,
    command: 'pnpm',
    args: [script],
    cwd: ROOT,
    env,
  });
  stacks.push(stack);
  try {
    await stack.waitForLine(/\[stack\] site: http:\/\/localhost:\d+ {3}API/, {
      timeoutMs: 180_000,
    });
  } catch (error) {
    await stack.stop();
    throw error;
  }
  return { stack, env, dataDir, apiPort, webPort };
};

const expectCleanStop = async ({ stack, dataDir, apiPort, webPort }) => {
  const exit = await stack.exited;
  expect(exit.code, stack.tail()).toBe(0);
  expect(exit.stdout).toMatch(/^\[stack\] stopped\.$/m);
  expect(exit.stdout + exit.stderr).not.toMatch(/ELIFECYCLE|ERR_PNPM|Command failed/);
  // Nothing left behind: no process of this stack, nothing answering on its ports.
  expect(await waitUntil(() => processesUsing(dataDir).length === 0, 10_000)).toBe(true);
  expect(typeof (await probeHttp(`http://127.0.0.1:${apiPort}/healthz`))).toBe('string');
  expect(typeof (await probeHttp(`http://127.0.0.1:${webPort}/`))).toBe('string');
};

describe('pnpm dev', () => {
  it('serves the API and the site from a fresh data folder, lets a CLI command run meanwhile without restarting anything, and stops cleanly on Ctrl-C', async () => {
    const running = await startStack('dev');
    const { stack, env, dataDir, apiPort, webPort } = running;
    expect(await probeHttp(`http://127.0.0.1:${apiPort}/v1/categories`), stack.tail(60)).toBe(401);
    // next dev compiles a page on its first visit: give it time.
    expect(await answers(`http://127.0.0.1:${webPort}/`, 200), stack.tail(60)).toBe(true);
    // Live reload answers a page opened at 127.0.0.1 too, not only at localhost: Next refuses a
    // dev resource to an origin it does not allow with 403.
    const hmr = await fetch(`http://127.0.0.1:${webPort}/_next/webpack-hmr?page=/`, {
      headers: {
        origin: `http://127.0.0.1:${webPort}`,
        'sec-fetch-mode': 'cors',
        'sec-fetch-site': 'cross-site',
      },
    });
    await hmr.body?.cancel();
    expect(hmr.status).not.toBe(403);

    const keys = await runProcess({
      name: 'pnpm keys list',
      command: 'pnpm',
      args: ['--silent', 'keys', 'list'],
      cwd: ROOT,
      env,
      timeoutMs: 60_000,
    });
    expect(keys.code, keys.stderr).toBe(0);
    expect(keys.stderr).toContain(`Database: embedded PostgreSQL (PGlite) in ${dataDir}`);
    expect(keys.stdout).toMatch(
      /\sweb-site\s+business\s+partner first-party\s.*the site \(pnpm start\)$/m,
    );
    expect(keys.stdout).toMatch(/\sdemo\s.*demo key \(printed at first start\)$/m);

    // A restart would show within a second or two (node --watch, then the API's start line).
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(await answers(`http://127.0.0.1:${webPort}/`, 200)).toBe(true);
    expect(await probeHttp(`http://127.0.0.1:${apiPort}/v1/categories`)).toBe(401);
    expect(stack.stdout()).not.toMatch(/Restarting/);
    expect(stack.stdout().match(/"msg":"API listening"/g)).toHaveLength(1);

    stack.kill('SIGINT');
    await expectCleanStop(running);
  });
});

describe('pnpm start', () => {
  it('stops cleanly, leaving nothing running, when only the pnpm process is sent SIGTERM', async () => {
    const running = await startStack('start');
    expect(await answers(`http://127.0.0.1:${running.webPort}/`, 200)).toBe(true);
    expect(running.stack.stdout()).toMatch(/^\[stack\] build/m);

    // The keys and addresses come last, and the API's access lines go to a file, not among them.
    const output = running.stack.stdout();
    const stackLines = output.split('\n').filter((line) => line.startsWith('[stack]'));
    expect(stackLines.at(-1)).toMatch(/^\[stack\] site: http:\/\/localhost:\d+ {3}API/);
    expect(output).toMatch(/^\[stack\] demo API key \(.*\): pets_live_\w+$/m);
    // The first admin, once, with a generated password (never in any process's argv).
    const admin =
      /^\[stack\] first admin \(shown only at this first start\): admin@localhost {2}\/ {2}([0-9A-Za-z]{20})$/m.exec(
        output,
      );
    expect(admin, output).not.toBeNull();
    const accessLog = join(running.dataDir, 'api-access.log');
    expect(output).toContain(
      `[stack] the API's access log (one JSON line per request): ${accessLog}`,
    );
    expect(output).not.toContain('"msg":"request"');
    expect(readFileSync(accessLog, 'utf8')).toContain('"msg":"request"');

    // Every command it prints works when pasted into a new shell, where DATA_DIR is not set.
    expect(output).toContain(`More keys: DATA_DIR=${running.dataDir} pnpm keys create`);
    const { DATA_DIR: _dataDir, PORT: _port, WEB_PORT: _webPort, ...newShell } = process.env;
    const pasted = await runProcess({
      name: 'pnpm accounts list, on the printed database',
      command: 'bash',
      args: ['-c', `DATA_DIR=${running.dataDir} pnpm --silent accounts list`],
      cwd: ROOT,
      env: newShell,
      timeoutMs: 120_000,
    });
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(pasted.stdout).toMatch(/admin@localhost/);
    expect(pasted.stdout).not.toContain(admin?.[1] ?? 'no password');

    running.stack.child.kill('SIGTERM');
    await expectCleanStop(running);
  });
});

describe('the variables run-stack reads', () => {
  it('has working defaults', () => {
    expect(parseStackConfig({}, '/repo')).toEqual({
      apiPort: 4000,
      webPort: 3000,
      dataDir: '/repo/.data',
    });
    expect(
      parseStackConfig({ PORT: '8080', WEB_PORT: '', DATA_DIR: '/srv/pets' }, '/repo'),
    ).toEqual({
      apiPort: 8080,
      webPort: 3000,
      dataDir: '/srv/pets',
    });
  });

  it.each([
    [{ WEB_PORT: '99999' }, 'WEB_PORT must be a whole number from 1 to 65535 (not "99999")'],
    [{ WEB_PORT: '0' }, 'WEB_PORT must be a whole number from 1 to 65535 (not "0")'],
    [{ PORT: 'abc' }, 'PORT must be a whole number from 1 to 65535 (not "abc")'],
    [{ PORT: '80.5' }, 'PORT must be a whole number from 1 to 65535 (not "80.5")'],
    [{ PORT: '3000' }, 'WEB_PORT must differ from PORT (both are 3000)'],
    [{ DATA_DIR: '   ' }, 'DATA_DIR must be a folder path'],
  ])('%j is refused in one line naming the variable', (env, message) => {
    expect(() => parseStackConfig(env, '/repo')).toThrow(
      new StackConfigError(`Invalid configuration: ${message}`),
    );
  });

  it('stops pnpm start with that line, before building anything, for WEB_PORT=99999', async () => {
    const result = await runProcess({
      name: 'pnpm start',
      command: 'pnpm',
      args: ['--silent', 'start'],
      cwd: ROOT,
      env: { ...process.env, WEB_PORT: '99999' },
      timeoutMs: 30_000,
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      '[stack] Invalid configuration: WEB_PORT must be a whole number from 1 to 65535 (not "99999")\n',
    );
  });
});
