import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, runProcess, startProcess } from '@pets/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTAINERS,
  composeServices,
  environmentOf,
  HOST_NAMES,
  healthCommand,
  OVERRIDDEN,
  ROOT,
  STAND_INS,
} from './compose-plan.mjs';

// The production shape, built and run: both images built from the Dockerfiles with podman (on the
// stand-in base scripts/images/prepare.sh makes), compose's containers started from them on the
// host network with compose's commands, environment and health checks (compose-plan.mjs), two API
// replicas behind the machine's nginx with deploy/nginx.conf, and the product used through it.

const RUN = `pets-images-${process.pid}`;
const api = createRequire(join(ROOT, 'apps/api/package.json'));
const S3rver = api('s3rver');
const { Client } = api('pg');

const services = composeServices();
const started = { containers: [], processes: [], cleanups: [] };
const sizes = {};
const timings = {};
let work = '';
const ports = {};
let keys = {};

const podman = (args, options = {}) =>
  runProcess({
    name: `podman ${args[0]}`,
    command: 'podman',
    args,
    cwd: ROOT,
    timeoutMs: 120_000,
    ...options,
  });

const podmanOk = async (args, options) => {
  const result = await podman(args, options);
  if (result.code !== 0) {
    throw new Error(`podman ${args.join(' ')}: ${result.description}\n${result.stderr}`);
  }
  return result.stdout;
};

/** One HTTP exchange without connection reuse, from `localAddress` when given. */
const send = (url, { method = 'GET', headers = {}, body, localAddress } = {}) =>
  new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method, headers, localAddress, agent: false },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: response.statusCode, headers: response.headers, text });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });

const json = (response) => JSON.parse(response.text);
const apiUrl = (path) => `http://127.0.0.1:${ports.nginx}${path}`;
const withKey = (key, extra = {}) => ({ authorization: `Bearer ${key}`, ...extra });
const postJson = (path, key, payload) =>
  send(apiUrl(path), {
    method: 'POST',
    headers: withKey(key, { 'content-type': 'application/json' }),
    body: JSON.stringify(payload),
  });

const until = async (check, timeoutMs, what) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`timed out waiting for ${what}`);
};

/** `podman run` of compose's service `name` from its image, on the host network. */
const runArgs = (environment) => [
  // compose's health checks are run by the test (waitHealthy); podman's need systemd's timers.
  '--no-healthcheck',
  '--network',
  'host',
  ...HOST_NAMES.flatMap((host) => ['--add-host', `${host}:127.0.0.1`]),
  ...Object.entries(environment).flatMap(([key, value]) => ['--env', `${key}=${value}`]),
];

const startContainer = async (name, environment, command = services[name].command ?? []) => {
  const container = `${RUN}-${name}`;
  started.containers.push(container);
  await podmanOk([
    'run',
    '--detach',
    '--name',
    container,
    ...runArgs(environment),
    services[name].image,
    ...command,
  ]);
  return container;
};

/** compose's health check of `name`, run in its container as compose would, until it passes. */
const waitHealthy = async (name, container, port) => {
  try {
    await until(
      async () =>
        (await podman(['exec', container, ...healthCommand(services[name], port)])).code === 0,
      90_000,
      `${name}'s health check`,
    );
  } catch (error) {
    throw new Error(`${error.message}; its log ends:\n${(await logsOf(container)).slice(-4000)}`);
  }
};

const logsOf = async (container) => {
  const result = await podman(['logs', container]);
  return result.stdout + result.stderr;
};

const cli = async (...args) =>
  podmanOk([
    'run',
    '--rm',
    ...runArgs(environmentOf(services.migrate, 'migrate', { DATABASE_URL: ports.databaseUrl })),
    services.migrate.image,
    'node',
    'apps/api/dist/cli/index.js',
    ...args,
  ]);

const createKey = async (...args) =>
  (await cli('keys', 'create', ...args)).trim().split('\n').at(-1);

const build = async (app) => {
  const image = services[app === 'api' ? 'api-1' : 'web'].image;
  const begun = Date.now();
  const result = await podman(
    [
      'build',
      // Docker's image format keeps the Dockerfiles' HEALTHCHECK (OCI's has no such field).
      '--format',
      'docker',
      '--network',
      'host',
      '--pull=never',
      '-f',
      `apps/${app}/Dockerfile`,
      '-t',
      image,
      '.',
    ],
    { timeoutMs: 1_200_000, logFile: join(work, `build-${app}.log`) },
  );
  if (result.code !== 0) {
    throw new Error(
      `podman build of apps/${app}/Dockerfile failed (${result.description}):\n${result.stdout.slice(-4000)}\n${result.stderr.slice(-4000)}`,
    );
  }
  timings[`build ${app}`] = Math.round((Date.now() - begun) / 1000);
};

/** deploy/nginx.conf with its ports (and the place of the file it includes) made the test's. */
const nginxConfig = () => {
  const replace = (text, from, to) => {
    if (text.split(from).length !== 2) {
      throw new Error(`deploy/nginx.conf no longer has exactly one '${from}'`);
    }
    return text.replace(from, to);
  };
  let site = readFileSync(join(ROOT, 'deploy/nginx.conf'), 'utf8');
  site = replace(site, 'server api-1:4000', `server 127.0.0.1:${ports['api-1']}`);
  site = replace(site, 'server api-2:4000', `server 127.0.0.1:${ports['api-2']}`);
  site = replace(site, 'listen 8080;', `listen ${ports.nginx};`);
  site = site.replaceAll('/etc/nginx/conf.d/pets-proxy.inc', join(work, 'pets-proxy.inc'));
  writeFileSync(join(work, 'pets-proxy.inc'), readFileSync(join(ROOT, 'deploy/pets-proxy.inc')));
  writeFileSync(join(work, 'site.conf'), site);
  writeFileSync(
    join(work, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${join(work, 'nginx.pid')};`,
      `error_log ${join(work, 'nginx-error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      `  access_log ${join(work, 'nginx-access.log')};`,
      `  client_body_temp_path ${join(work, 'nginx-body')};`,
      `  proxy_temp_path ${join(work, 'nginx-proxy')};`,
      `  include ${join(work, 'site.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'pets-images-'));
  await Promise.all(['api', 'web'].map((app) => build(app)));

  // compose's stand-ins: a fresh database, a Redis and an object store of the test's own.
  const database = `pets_images_${process.pid}`;
  const server = new URL(
    process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  );
  const admin = new Client({ connectionString: server.href });
  const own = new URL(server.href);
  own.pathname = `/${database}`;
  ports.testDatabaseUrl = own.href;
  admin.on('error', () => {});
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  started.cleanups.push(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });
  for (const name of ['redis', 's3', 'nginx', 'api-1', 'api-2', 'web']) {
    ports[name] = await freePort();
  }
  // The containers reach the test's PostgreSQL by compose's name for it (`--add-host`).
  const inContainers = new URL(server.href);
  inContainers.hostname = 'postgres';
  inContainers.pathname = `/${database}`;
  ports.databaseUrl = inContainers.href;
  const redis = startProcess({
    name: 'redis-server',
    command: 'redis-server',
    args: [
      '--bind',
      '127.0.0.1',
      '--port',
      String(ports.redis),
      '--save',
      '',
      '--appendonly',
      'no',
    ],
  });
  started.processes.push(redis);
  await redis.waitForLine(/Ready to accept connections/, { timeoutMs: 20_000 });
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: ports.s3,
    silent: true,
    directory: mkdtempSync(join(work, 's3-')),
    configureBuckets: [{ name: services['api-1'].environment.S3_BUCKET, configs: [] }],
  });
  await s3.run();
  started.cleanups.push(() => s3.close());

  const migrate = await cli(...services.migrate.command.slice(2));
  expect(migrate).toMatch(new RegExp(`/${database}: applied \\d{14}_init`));
  // The categories (and demo animals) a store starts with: animals need a category.
  expect(await cli('seed')).toMatch(/^Added \d+ categories and \d+ animals\.$/m);
  keys = {
    web: await createKey('--plan', 'business', '--first-party', '--name', 'web-site'),
    partner: await createKey('--plan', 'business', '--name', 'a partner'),
    free: await createKey('--plan', 'free', '--name', 'a free app'),
    staff: await createKey('--plan', 'business', '--role', 'staff', '--name', 'staff'),
  };
  process.stdout.write(`[images] keys ${JSON.stringify(keys)}\n`);

  for (const name of ['api-1', 'api-2']) {
    const container = await startContainer(
      name,
      environmentOf(services[name], name, {
        DATABASE_URL: ports.databaseUrl,
        REDIS_URL: `redis://redis:${ports.redis}`,
        S3_ENDPOINT: `http://object-store:${ports.s3}`,
        PORT: String(ports[name]),
      }),
    );
    await waitHealthy(name, container, ports[name]);
  }

  nginxConfig();
  const nginx = startProcess({
    name: 'nginx',
    command: '/usr/sbin/nginx',
    args: ['-p', work, '-c', join(work, 'nginx.conf')],
  });
  started.processes.push(nginx);
  await until(
    async () => (await send(apiUrl('/healthz')).catch(() => ({}))).status === 200,
    20_000,
    'nginx',
  );

  // The site's port is the test's (compose's 3000 is taken by people's `pnpm start`).
  const web = await startContainer(
    'web',
    environmentOf(services.web, 'web', {
      API_URL: `http://proxy:${ports.nginx}/v1`,
      REDIS_URL: `redis://redis:${ports.redis}`,
      WEB_API_KEY: keys.web,
      SESSION_SECRET: randomBytes(32).toString('base64'),
    }),
    ['node', 'dist/edge/server.js', '--port', String(ports.web), '--hostname', '0.0.0.0'],
  );
  await waitHealthy('web', web, ports.web);
}, 1_800_000);

afterAll(async () => {
  if (process.env.PETS_IMAGES_KEEP === '1') {
    process.stdout.write(
      `[images] PETS_IMAGES_KEEP=1: left running, in ${work}: ${JSON.stringify(ports)}\n`,
    );
    return;
  }
  for (const container of started.containers.splice(0)) {
    await podman(['rm', '--force', '--time', '0', container]);
  }
  for (const process of started.processes.splice(0)) {
    if (!process.hasExited()) {
      await process.stop(10_000);
    }
  }
  for (const cleanup of started.cleanups.splice(0).reverse()) {
    await cleanup();
  }
  if (work !== '') {
    rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write(
    `[images] sizes: ${JSON.stringify(sizes)}; build seconds: ${JSON.stringify(timings)}\n`,
  );
}, 120_000);

describe('docker-compose.yml and this test', () => {
  it('run the same services: each of compose is either one of the containers here or has a stand-in named', () => {
    expect(Object.keys(services).sort()).toEqual([...CONTAINERS, ...Object.keys(STAND_INS)].sort());
    for (const name of CONTAINERS) {
      expect(services[name].image, name).toMatch(/^pets-(api|web):latest$/);
      for (const key of OVERRIDDEN[name].filter((key) => key !== 'PORT')) {
        expect(Object.keys(services[name].environment), `${name} ${key}`).toContain(key);
      }
    }
    // The proxy's published port leads to nginx.conf's listen port, which the test replaces.
    expect(services.proxy.ports[0]).toMatchObject({ target: 8080 });
    expect(services.proxy.volumes.map((volume) => (volume.source ?? volume).split(':')[0])).toEqual(
      [join(ROOT, 'deploy/nginx.conf'), join(ROOT, 'deploy/pets-proxy.inc')],
    );
  });
});

/** Dev dependencies of an app that one of its production packages needs too (so they ship). */
const NEEDED_IN_PRODUCTION = {
  api: { yaml: 'yaml 1, a dependency of openapi3-ts (the OpenAPI document)' },
  web: { sharp: "a dependency of next (its image optimisation), the web's dev tool for pictures" },
};

describe('the images', () => {
  const inspect = async (image) => JSON.parse(await podmanOk(['image', 'inspect', image]))[0];
  const inImage = (image, script) =>
    podmanOk(['run', '--rm', '--network', 'host', '--entrypoint', 'sh', image, '-c', script]);

  it.each([
    ['api', 'apps/api/package.json', '/app/apps/api'],
    ['web', 'apps/web/package.json', '/app'],
  ])(
    '%s: runs as the unprivileged user, without dev dependencies, tests or sources',
    async (app, manifest, dir) => {
      const image = services[app === 'api' ? 'api-1' : 'web'].image;
      const info = await inspect(image);
      expect(info.Config.User).toBe('node');
      expect((await inImage(image, 'id -u')).trim()).toBe('1000');
      const { dependencies, devDependencies } = JSON.parse(
        readFileSync(join(ROOT, manifest), 'utf8'),
      );
      const devOnly = Object.keys(devDependencies).filter((name) => !(name in dependencies));
      // Linked at the top (node_modules/<name>) or anywhere in pnpm's store (.pnpm/<name>@<version>).
      const linked = await inImage(image, `cd ${dir}/node_modules && ls -d * @*/*`);
      const stored = (await inImage(image, `ls ${dir}/node_modules/.pnpm`))
        .split('\n')
        .map((entry) => entry.replace(/^(@?[^@]+)@.*$/, '$1').replace('+', '/'));
      for (const name of devOnly) {
        expect(linked.split('\n'), name).not.toContain(name);
        if (!(name in NEEDED_IN_PRODUCTION[app])) {
          expect(stored, name).not.toContain(name);
        }
      }
      const strays = await inImage(
        image,
        `find /app -path '*/node_modules' -prune -o \\( -name '*.test.*' -o -name '*.spec.*' -o -name e2e -o -name 'playwright.config.*' -o -name 'vitest.config.*' -o -name src -o -name '*.ts' -not -name '*.d.ts' -o -name tsconfig.json \\) -print`,
      );
      // The site's one source file: Next.js reads next.config.ts at start, and it imports that.
      expect(strays.trim().split('\n').filter(Boolean).sort()).toEqual(
        app === 'web' ? ['/app/next.config.ts', '/app/src', '/app/src/edge/dev-origins.ts'] : [],
      );
      const [total, base] = [
        info.Size,
        (await inspect('docker.io/library/node:24-bookworm-slim')).Size,
      ];
      const appMb = (await inImage(image, `du -sm ${dir} | cut -f1`)).trim();
      const modulesMb = (await inImage(image, `du -sm ${dir}/node_modules | cut -f1`)).trim();
      sizes[app] = {
        imageMb: Math.round(total / 1e6),
        baseMb: Math.round(base / 1e6),
        appMb,
        modulesMb,
      };
      process.stdout.write(`[images] ${image}: ${JSON.stringify(sizes[app])}\n`);
    },
  );

  // Both are optional dependencies of their packages, one per platform, which the image's deploy
  // leaves out and platform-bindings.mjs puts back: an image without them started its migrations
  // and failed at the first password (CI found it), and would have failed at the first photo.
  it('api: loads its native bindings: sharp encodes a photo, argon2 hashes a password', async () => {
    const image = services['api-1'].image;
    const script = [
      "const { createRequire } = require('node:module');",
      "const store = createRequire(require.resolve('@pets/store/pets.repository'));",
      "const sharp = require('sharp');",
      "const { hash } = store('@node-rs/argon2');",
      "const png = { create: { width: 4, height: 4, channels: 3, background: '#c96' } };",
      'Promise.all([sharp(png).webp().toBuffer(), hash("a password")])',
      ".then(([webp, digest]) => console.log(webp.subarray(8, 12).toString(), digest.split('$')[1]));",
    ].join(' ');
    // Sent as base64: the shell sees no quote of the script's.
    const encoded = Buffer.from(script).toString('base64');
    const loaded = await inImage(
      image,
      `cd /app/apps/api && node -e "eval(Buffer.from('${encoded}', 'base64').toString())"`,
    );
    expect(loaded.trim()).toBe('WEBP argon2id');
  });
});

describe('two API replicas behind nginx, and the site', () => {
  let pet;
  let categoryId;

  it('/readyz answers through nginx, on Redis', async () => {
    const response = await send(apiUrl('/readyz'));
    expect(response.status).toBe(200);
    expect(json(response)).toMatchObject({
      status: 'ok',
      checks: { rateLimits: { backend: 'redis' } },
    });
  });

  it('an adopter applies through a partner and the staff approve: list, place an order, approve', async () => {
    const categories = await send(apiUrl('/v1/categories'), { headers: withKey(keys.partner) });
    categoryId = json(categories)[0].id;
    const created = await postJson('/v1/pets', keys.staff, {
      name: `Pickles ${RUN}`,
      categoryId,
    });
    expect(created.status, created.text).toBe(201);
    pet = json(created);
    const listed = await send(apiUrl('/v1/pets?status=available&limit=100'), {
      headers: withKey(keys.partner),
    });
    expect(listed.status).toBe(200);
    expect(json(listed).map((animal) => animal.id)).toContain(pet.id);
    const placed = await postJson('/v1/store/orders', keys.partner, {
      petId: pet.id,
      adopter: { name: 'Ada Lovelace', email: 'ada@example.org' },
    });
    expect(placed.status, placed.text).toBe(201);
    const order = json(placed);
    const refused = await postJson(`/v1/store/orders/${order.id}/approve`, keys.partner, {});
    expect(refused.status).toBe(403);
    const approved = await postJson(`/v1/store/orders/${order.id}/approve`, keys.staff, {});
    expect(approved.status, approved.text).toBe(200);
    expect(json(approved).status).toBe('approved');
    const seen = await send(apiUrl(`/v1/pets?id=${pet.id}`), { headers: withKey(keys.partner) });
    expect(json(seen)[0].status).toBe('pending');
  });

  it("the site's home page and an animal's page come from the web container, with the API's animals", async () => {
    const home = await send(`http://127.0.0.1:${ports.web}/`);
    expect(home.status).toBe(200);
    expect(home.text).toContain('<html');
    const page = await send(`http://127.0.0.1:${ports.web}/pets/${pet.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`Pickles ${RUN}`);
  });

  it('a Free key gets exactly 60 of 100 concurrent requests, spread over both replicas', async () => {
    const marker = `burst${process.pid}`;
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        send(apiUrl(`/v1/pets?limit=1&name=${marker}`), { headers: withKey(keys.free) }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(60);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40);
    const served = {};
    for (const name of ['api-1', 'api-2']) {
      served[name] = (await logsOf(`${RUN}-${name}`)).split(marker).length - 1;
      expect(served[name], `requests ${name} logged`).toBeGreaterThan(0);
    }
    process.stdout.write(
      `[images] 100 concurrent requests of a Free key, by replica: ${JSON.stringify(served)}\n`,
    );
  });

  it('a 12 MB photo upload is refused with 413', async () => {
    const body = Buffer.alloc(12 * 1024 * 1024, 0xff);
    const response = await send(apiUrl(`/v1/pets/${pet.id}/photos`), {
      method: 'POST',
      headers: withKey(keys.staff, {
        'content-type': 'image/jpeg',
        'content-length': String(body.length),
      }),
      body,
    });
    expect(response.status).toBe(413);
  });

  it("believes X-Forwarded-For only as nginx writes it: a client's own buys no fresh budget", async () => {
    const anonymous = (localAddress, forwardedFor) =>
      send(apiUrl('/v1/categories'), {
        localAddress,
        headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
      });
    const remaining = (response) => Number(response.headers['x-ratelimit-remaining']);
    const first = await anonymous('127.0.0.2', '203.0.113.7');
    const second = await anonymous('127.0.0.2', '198.51.100.9');
    expect(first.status).toBe(401);
    // One budget for 127.0.0.2, whatever it claims to be...
    expect(remaining(second)).toBe(remaining(first) - 1);
    // ...and another for 127.0.0.3: the address nginx saw is the one the replicas count.
    const other = await anonymous('127.0.0.3', '203.0.113.7');
    expect(remaining(other)).toBe(remaining(first));
  });

  it('SIGTERM to one API container during load loses no acknowledged request', async () => {
    const names = [];
    const answers = [];
    let stopping;
    const worker = async (index) => {
      for (let round = 0; round < 40; round += 1) {
        if (index === 0 && round === 5) {
          // compose's `docker-compose stop`: SIGTERM, then up to stop_grace_period.
          stopping = podman(['stop', '--time', '30', `${RUN}-api-1`], { timeoutMs: 60_000 });
        }
        if (round % 4 === 0) {
          const name = `Load ${index}-${round} ${RUN}`;
          names.push(name);
          answers.push(await postJson('/v1/pets', keys.staff, { name, categoryId }));
        } else {
          answers.push(await send(apiUrl('/v1/pets?limit=5'), { headers: withKey(keys.partner) }));
        }
      }
    };
    const begun = Date.now();
    await Promise.all(Array.from({ length: 12 }, (_, index) => worker(index)));
    const memory = await podmanOk([
      'stats',
      '--no-stream',
      '--format',
      '{{.Name}} {{.MemUsage}}',
      `${RUN}-api-2`,
      `${RUN}-web`,
    ]);
    process.stdout.write(
      `[images] 480 requests (120 POST) by 12 clients in ${Date.now() - begun} ms, api-1 stopped meanwhile; memory after:\n${memory}`,
    );
    const stopped = await stopping;
    expect(stopped.code, stopped.stderr).toBe(0);
    const failures = answers
      .filter((answer) => answer.status >= 300)
      .map((answer) => answer.status);
    expect(failures).toEqual([]);
    expect(answers).toHaveLength(480);
    const exited = JSON.parse(await podmanOk(['inspect', `${RUN}-api-1`]))[0].State;
    expect(exited.ExitCode).toBe(0);
    // Each acknowledged animal is in the database, once.
    const db = new Client({ connectionString: ports.testDatabaseUrl });
    db.on('error', () => {});
    await db.connect();
    try {
      const { rows } = await db.query(
        'SELECT name, count(*)::int AS count FROM pets WHERE name = ANY($1) GROUP BY name',
        [names],
      );
      expect(rows).toHaveLength(names.length);
      expect(rows.filter((row) => row.count !== 1)).toEqual([]);
    } finally {
      await db.end();
    }
  });
});
