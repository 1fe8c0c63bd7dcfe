import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig, REPO_ROOT } from '../config';

/**
 * The deployment files at the repository root. There is no Docker engine here: the compose file
 * is validated by Debian's docker-compose 1.29 (`config -q`, as CI does) and its normalised form
 * is checked for what the product needs; the Dockerfiles are read for what they promise.
 */

type TService = {
  build?: { context: string; dockerfile: string };
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[] };
  ports?: unknown[];
  volumes?: (string | { source?: string; target?: string; type?: string })[];
};

const COMPOSE_FILE = join(REPO_ROOT, 'docker-compose.yml');

/** docker-compose (v1, what CI has) or, on a developer's machine, `docker compose` (v2). */
const compose = (args: string[]) => {
  const hasV1 = spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0;
  const [command, prefix] = hasV1 ? ['docker-compose', []] : ['docker', ['compose']];
  return execFileSync(command, [...prefix, '--file', COMPOSE_FILE, ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    // Interpolation must not depend on whoever runs the test.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
};

/** The file as docker-compose reads it: anchors merged, variables interpolated (~3 s). */
let services: Record<string, TService>;
beforeAll(() => {
  services = (parse(compose(['config'])) as { services: Record<string, TService> }).services;
});

const dockerfile = (app: string) =>
  readFileSync(join(REPO_ROOT, 'apps', app, 'Dockerfile'), 'utf8');

/** The instructions of the last stage: what the image runs. */
const finalStage = (text: string) => text.slice(text.lastIndexOf('\nFROM '));

describe('docker-compose.yml', () => {
  it('is valid for docker-compose config -q', () => {
    expect(() => compose(['config', '-q'])).not.toThrow();
  });

  it('every long-running service has a health check', () => {
    expect(Object.keys(services).sort()).toEqual([
      'api-1',
      'api-2',
      'migrate',
      'object-store',
      'object-store-setup',
      'postgres',
      'proxy',
      'redis',
      'web',
    ]);
    for (const [name, service] of Object.entries(services)) {
      // The one-shot jobs, and the object store, whose image has nothing to probe itself with:
      // its setup job waits for it to answer, and the replicas wait for that job.
      if (['migrate', 'object-store-setup', 'object-store'].includes(name)) {
        // `disable: true`, as docker-compose writes it back.
        expect(service.healthcheck?.test).toEqual(['NONE']);
        continue;
      }
      expect(service.healthcheck?.test?.length, name).toBeGreaterThan(1);
    }
  });

  it('migrations run once, before any API replica serves', () => {
    expect(services.migrate?.command).toEqual(['node', 'apps/api/dist/cli/index.js', 'migrate']);
    expect(services.migrate?.depends_on?.postgres?.condition).toBe('service_healthy');
    for (const name of ['api-1', 'api-2']) {
      expect(services[name]?.depends_on?.migrate?.condition).toBe('service_completed_successfully');
      expect(services[name]?.healthcheck?.test?.join(' ')).toContain('/readyz');
    }
  });

  it('two API replicas share one database and one Redis, behind the proxy only', () => {
    const [first, second] = [services['api-1'], services['api-2']];
    expect(first?.environment).toEqual(second?.environment);
    expect(first?.environment?.REDIS_URL).toBe('redis://redis:6379');
    expect(first?.environment?.DATABASE_URL).toMatch(/@postgres:5432\/pets$/);
    expect(first?.environment?.TRUSTED_PROXIES).toBe('1');
    expect(first?.ports).toBeUndefined();
    expect(second?.ports).toBeUndefined();
    expect(services.proxy?.depends_on).toMatchObject({
      'api-1': { condition: 'service_healthy' },
      'api-2': { condition: 'service_healthy' },
    });
    const nginx = readFileSync(join(REPO_ROOT, 'deploy', 'nginx.conf'), 'utf8');
    const proxying = readFileSync(join(REPO_ROOT, 'deploy', 'pets-proxy.inc'), 'utf8');
    expect(nginx).toMatch(/server api-1:4000/);
    expect(nginx).toMatch(/server api-2:4000/);
    // The client's own X-Forwarded-For is replaced, never trusted.
    expect(proxying).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/);
    expect(nginx.match(/include \/etc\/nginx\/conf\.d\/pets-proxy\.inc;/g)).toHaveLength(2);
    expect(services.proxy?.volumes).toContainEqual(
      `${join(REPO_ROOT, 'deploy', 'pets-proxy.inc')}:/etc/nginx/conf.d/pets-proxy.inc:ro`,
    );
    // nginx closes idle upstream connections before the API would: neither races the other.
    const upstreamIdle = Number(/keepalive_timeout (\d+)s;/.exec(nginx)?.[1]);
    expect(upstreamIdle).toBeGreaterThan(0);
    expect(upstreamIdle).toBeLessThan(loadConfig({}).KEEP_ALIVE_TIMEOUT_SECONDS);
  });

  it('the site calls the API through the proxy, with its key from the environment', () => {
    const web = services.web;
    expect(web?.environment?.API_URL).toBe('http://proxy:8080/v1');
    expect(web?.depends_on?.proxy?.condition).toBe('service_healthy');
    // From the environment or .env, never written into the file.
    expect(readFileSync(COMPOSE_FILE, 'utf8')).toContain(`WEB_API_KEY: ${'$'}{WEB_API_KEY:-}`);
  });

  it('the database lives in a named volume', () => {
    expect(services.postgres?.volumes).toEqual(['postgres-data:/var/lib/postgresql/data:rw']);
  });

  it('photos go to the S3-compatible object store, shared by both replicas', () => {
    const environment = services['api-1']?.environment ?? {};
    expect(environment.S3_BUCKET).toBe('pets-photos');
    expect(environment.S3_ENDPOINT).toBe('http://object-store:9000');
    expect(environment.S3_FORCE_PATH_STYLE).toBe('true');
    expect(environment.MEDIA_BASE_URL).toBe('http://localhost:9000/pets-photos');
    // The API's own configuration accepts what compose gives it.
    expect(() => loadConfig(environment)).not.toThrow();
    for (const name of ['api-1', 'api-2']) {
      expect(services[name]?.depends_on?.['object-store-setup']?.condition).toBe(
        'service_completed_successfully',
      );
    }
    const setup = services['object-store-setup'];
    expect(setup?.environment?.AWS_ENDPOINT_URL).toBe('http://object-store:9000');
    expect(setup?.command?.join(' ')).toMatch(/create-bucket[\s\S]*put-bucket-policy/);
    // Anyone may read a file; nobody may list or write without the key.
    expect(setup?.command?.join(' ')).toContain('\\"Action\\":[\\"s3:GetObject\\"]');
    const volumes = services['object-store']?.volumes?.map((volume) =>
      typeof volume === 'string' ? volume : volume.source,
    );
    expect(volumes?.[0]).toMatch(/^object-store-data:\/data/);
  });
});

describe('Dockerfiles', () => {
  it.each(['api', 'web'])(
    '%s: multi-stage, pruned, production dependencies only, not root',
    (app) => {
      const text = dockerfile(app);
      expect(text.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(3);
      expect(text).toContain(`turbo prune @pets/${app} --docker`);
      expect(text).toMatch(new RegExp(`pnpm --filter=@pets/${app} deploy --prod`));
      expect(text).toContain('pnpm install --frozen-lockfile');
      expect(text).toContain('pnpm@10.34.9');
      expect(text).toMatch(/node:24-/);
      const runtime = finalStage(text);
      expect(runtime).toMatch(/^USER node$/m);
      expect(runtime).not.toMatch(/pnpm install|turbo/);
      expect(runtime).toMatch(/^HEALTHCHECK /m);
      // docker-compose 1.29 builds without BuildKit: no BuildKit-only syntax.
      expect(text).not.toMatch(/--mount=|^# syntax=/m);
    },
  );
});
