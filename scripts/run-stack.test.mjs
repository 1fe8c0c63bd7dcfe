import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import {
  chromiumLaunchOptions,
  freePort,
  probeHttp,
  runProcess,
  startProcess,
} from '@pets/testing';
import { chromium } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { composeServices } from './images/compose-plan.mjs';
import { parseStackConfig, StackConfigError, stackAddresses } from './stack-config.mjs';

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

/** A PNG of `width` × `height`, made here (no picture is committed): bands of warm colours. */
const pngPhoto = (width, height) => {
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])));
    return Buffer.concat([length, Buffer.from(type), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x += 1) {
      row.set([(200 + (x * 40) / width) | 0, (120 + (y * 80) / height) | 0, 60], 1 + x * 3);
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};

/** The first capture group of `pattern` in `text`; fails, quoting the text, when there is none. */
const printed = (text, pattern) => {
  const match = pattern.exec(text);
  expect(match, text).not.toBeNull();
  return match?.[1] ?? '';
};

/** A shell with nothing of the test's environment the product reads: a new terminal. */
const newShellEnv = () => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '/tmp',
  ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
});

/**
 * Records every CSP violation: as the page sees it (`securitypolicyviolation`) and as the console
 * says it ("Refused to load the image ... because it violates the following Content Security
 * Policy directive").
 */
const watchForViolations = async (page) => {
  const problems = [];
  page.on('console', (message) => {
    if (/Content Security Policy|CSP violation/i.test(message.text())) {
      problems.push(`console: ${message.text()}`);
    }
  });
  await page.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (event) => {
      console.error('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI);
    });`,
  });
  return problems;
};

describe('pnpm start, the first hour, as the README says', () => {
  // `pnpm start` on a new DATA_DIR, nothing else set: the README's ports, its printed first admin,
  // its printed addresses, one start for all of it. It builds nothing here (`pnpm test` built
  // it), but the API's first start on a new embedded database takes a while on two cores.
  const SITE = 'http://localhost:3000';
  let stack;
  let dataDir;
  let output = '';
  let browser;
  let staff;
  let animal;

  beforeAll(async () => {
    for (const url of [`${SITE}/`, 'http://localhost:4000/healthz']) {
      expect(typeof (await probeHttp(url)), `${url} must be free for this test`).toBe('string');
    }
    // Not freshDataDir(): its folders go after each test, and this one serves them all.
    dataDir = mkdtempSync(join(tmpdir(), 'pets-first-hour-'));
    stack = startProcess({
      name: 'pnpm start',
      command: 'pnpm',
      args: ['start'],
      cwd: ROOT,
      env: { ...newShellEnv(), DATA_DIR: dataDir },
    });
    await stack.waitForLine(
      /^\[stack\] site: http:\/\/localhost:3000 {3}API: http:\/\/localhost:4000\/v1 /,
      {
        timeoutMs: 300_000,
      },
    );
    output = stack.stdout();
    expect(output).toMatch(/^\[stack\] build/m);
    browser = await chromium.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH || undefined));
  }, 330_000);

  afterAll(async () => {
    // Whatever failed: the browser closed, and everything the start started stopped.
    await browser?.close();
    if (stack && !stack.hasExited()) {
      await stack.stop(20_000);
    }
    if (dataDir) {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('prints the first admin and the back office address, and they sign in', async () => {
    const signInUrl = printed(output, /^\[stack\] back office: (http:\/\/\S+\/staff\/sign-in)$/m);
    expect(signInUrl).toBe(`${SITE}/staff/sign-in`);
    const [, email, password] =
      /^\[stack\] first admin \(shown only at this first start\): (\S+) {2}\/ {2}([0-9A-Za-z]{20})$/m.exec(
        output,
      ) ?? [];
    expect(email, output).toBe('admin@localhost');
    staff = await browser.newContext();
    const page = await staff.newPage();
    await page.goto(signInUrl);
    await page.getByLabel('Email').fill(email ?? '');
    await page.getByLabel('Password').fill(password ?? '');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(
      (url) => url.pathname.startsWith('/staff') && !url.pathname.includes('sign-in'),
    );
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
    await page.close();
  });

  it('adds an animal with a photo through the back office', async () => {
    const page = await staff.newPage();
    await page.goto(`${SITE}/staff/animals/new`);
    const name = `Marmalade ${Date.now().toString(36)}`;
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Category').selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Add animal' }).click();
    await page.waitForURL(/\/staff\/animals\/\d+/);
    const id = Number(/\/staff\/animals\/(\d+)/.exec(page.url())?.[1]);
    await page.getByLabel('Add a photo').setInputFiles({
      name: 'marmalade.png',
      mimeType: 'image/png',
      buffer: pngPhoto(800, 600),
    });
    await page.getByRole('button', { name: 'Upload photo' }).click();
    await page.getByRole('status').filter({ hasText: 'Photo added.' }).waitFor({ timeout: 60_000 });
    animal = { id, name };
    await page.close();
  });

  it.each(['http://localhost:3000', 'http://127.0.0.1:3000'])(
    'shows the photo on the public page at %s, with no CSP violation',
    async (site) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const problems = await watchForViolations(page);
      await page.goto(`${site}/pets/${animal.id}`);
      await page.getByRole('heading', { level: 1, name: animal.name }).waitFor();
      const photo = page.locator('main img[srcset]').first();
      // A picture the browser loaded and decoded, from the API's media address.
      expect(await photo.getAttribute('srcset')).toMatch(/http:\/\/localhost:4000\/media\//);
      await expect
        .poll(() => photo.evaluate((image) => image.complete && image.naturalWidth), {
          timeout: 30_000,
        })
        .toBeGreaterThan(0);
      await page.waitForLoadState('networkidle');
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  it('a developer signs up, confirms through the printed dev mailbox, and List animals\' first "Test Request" at the printed reference lists them', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    page.setDefaultTimeout(90_000);
    const developer = `dana-${Date.now().toString(36)}@example.org`;
    await page.goto(`${SITE}/developers/sign-up`);
    await page.getByLabel('Email').fill(developer);
    await page.getByLabel('Password').fill('a long enough passphrase');
    await page.getByLabel('Your name').fill('Dana Developer');
    await page.getByLabel('Organisation').fill('Shelter Apps');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Check your email' }).waitFor();

    // The dev mailbox, as the start printed it: run as printed, in a new shell.
    const mailCommand = printed(output, /mail lands in the dev mailbox: (.*pnpm mail)\)\.$/m);
    let link = '';
    for (let attempt = 0; attempt < 30 && link === ''; attempt += 1) {
      const mail = await runProcess({
        name: 'pnpm mail, as printed',
        command: 'bash',
        args: ['-c', mailCommand],
        cwd: ROOT,
        env: newShellEnv(),
        timeoutMs: 120_000,
      });
      expect(mail.code, mail.stderr).toBe(0);
      const lines = mail.stdout.split('\n');
      const index = lines.findIndex((line) => line.includes(developer));
      link = index >= 0 ? (lines[index + 1] ?? '').trim() : '';
      if (link === '') {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
    expect(link).toMatch(/^file:\/\/.*\.html$/);
    // Opened in the browser, as `pnpm mail` says; its button leads to the page that confirms.
    await page.goto(link);
    const verify = await page
      .locator('a[href*="/developers/verify/"]')
      .first()
      .getAttribute('href');
    expect(verify).toMatch(/^http:\/\/localhost:3000\/developers\/verify\//);
    await page.goto(verify ?? '');
    await page.getByRole('button', { name: 'Confirm my email address' }).click();
    await page.waitForURL(/\/developers\?verified=1/);

    await page.goto(`${SITE}/developers/keys/new`);
    await page.getByLabel('Name').fill('First try');
    await page.getByRole('button', { name: 'Create the key' }).click();
    const key = ((await page.locator('#issued-key').textContent()) ?? '').trim();
    expect(key).toMatch(/^pets_(live|test)_/);

    // The API reference at the address the start printed, the key given to its client.
    const reference = printed(output, /API reference: (http:\/\/\S+\/docs)$/m);
    expect(reference).toBe('http://localhost:4000/docs');
    await page.goto(reference);
    await page.getByRole('heading', { name: 'Pet Adoption API' }).first().waitFor();
    await page.getByText('List animals', { exact: true }).first().click();
    await page.locator('button.show-api-client-button', { hasText: '(get /pets)' }).first().click();
    const token = page.getByPlaceholder('Token').filter({ visible: true }).last();
    await token.fill(key);
    const [response] = await Promise.all([
      page.waitForResponse(
        (each) => each.request().method() === 'GET' && new URL(each.url()).pathname === '/v1/pets',
      ),
      page
        .locator('button', { hasText: /^\s*Send\b/ })
        .filter({ visible: true })
        .first()
        .click(),
    ]);
    expect(response.url()).toBe('http://localhost:4000/v1/pets');
    expect(response.status()).toBe(200);
    const animals = await response.json();
    expect(animals.map((each) => each.name)).toContain(animal.name);
    await context.close();
  }, 360_000);

  it('prints every command to run as it runs from a new shell, and its access log apart', () => {
    // The keys and addresses come last, and the API's access lines go to a file, not among them.
    const stackLines = output.split('\n').filter((line) => line.startsWith('[stack]'));
    expect(stackLines.at(-1)).toMatch(/^\[stack\] site: http:\/\/localhost:3000 {3}API/);
    expect(output).toMatch(/^\[stack\] demo API key \(.*\): pets_live_\w+$/m);
    const accessLog = join(dataDir, 'api-access.log');
    expect(output).toContain(
      `[stack] the API's access log (one JSON line per request): ${accessLog}`,
    );
    expect(output).not.toContain('"msg":"request"');
    expect(readFileSync(accessLog, 'utf8')).toContain('"msg":"request"');
    // Every data command printed names this DATA_DIR: a new shell has none.
    const commands = output.match(/(?:[A-Z_]+=\S+ )*pnpm (?:keys|accounts|mail|db:\w+)\b/g) ?? [];
    expect(commands).toEqual(
      expect.arrayContaining([`DATA_DIR=${dataDir} pnpm keys`, `DATA_DIR=${dataDir} pnpm mail`]),
    );
    expect(commands.filter((command) => !command.startsWith(`DATA_DIR=${dataDir} `))).toEqual([]);
  });

  it('stops cleanly, leaving nothing running, when only the pnpm process is sent SIGTERM', async () => {
    stack.child.kill('SIGTERM');
    await expectCleanStop({ stack, dataDir, apiPort: 4000, webPort: 3000 });
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

  it('hands the API and the site one address for the photos, where browsers load them', () => {
    const ports = { apiPort: 4000, webPort: 3000 };
    expect(stackAddresses(ports, {})).toEqual({
      siteApiUrl: 'http://127.0.0.1:4000/v1',
      siteUrl: 'http://localhost:3000',
      mediaBaseUrl: 'http://localhost:4000/media',
    });
    expect(
      stackAddresses(ports, { MEDIA_BASE_URL: 'https://photos.example.org', S3_BUCKET: 'pets' })
        .mediaBaseUrl,
    ).toBe('https://photos.example.org');
    // A bucket without its address: the API says what is missing, rather than a wrong default.
    expect(stackAddresses(ports, { S3_BUCKET: 'pets' }).mediaBaseUrl).toBe('');
  });

  it("compose gives the site the API's MEDIA_BASE_URL, so its CSP names where the photos are", () => {
    const services = composeServices();
    expect(services.web.environment.MEDIA_BASE_URL).toBe(
      services['api-1'].environment.MEDIA_BASE_URL,
    );
    expect(services.web.environment.MEDIA_BASE_URL).toBe('http://localhost:9000/pets-photos');
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
