import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

// What `pnpm test:images` runs, read from docker-compose.yml: compose is the one source of the
// containers' images, commands, environment and health checks. The test runs compose's containers
// with podman on the host network, where services cannot find each other by name and two replicas
// cannot share port 4000; everything else is compose's, unchanged.

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** compose's services as docker-compose reads them: anchors merged, variables at their defaults. */
export const composeServices = () => {
  const text = execFileSync(
    'docker-compose',
    ['--file', join(ROOT, 'docker-compose.yml'), 'config'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      // Interpolation must not depend on whoever runs the test.
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return parse(text).services;
};

/** compose's services the test runs as containers of the images it builds. */
export const CONTAINERS = ['migrate', 'api-1', 'api-2', 'web'];

/** compose's other services, and what plays each one's part in the test. */
export const STAND_INS = {
  postgres: "the machine's PostgreSQL, a fresh database of the test's own",
  redis: "a redis-server of the test's own, on a free port",
  'object-store': 's3rver (an S3-compatible server in Node) on a free port',
  'object-store-setup': "s3rver's own bucket configuration (the bucket exists from the start)",
  proxy: "the machine's nginx (Debian's) with deploy/nginx.conf, ports changed only",
};

/**
 * What differs from compose, by service: the variables whose values hold another service's
 * address or port (services are reached at 127.0.0.1 through `--add-host`, so only ports and
 * the database's credentials change) and the secrets compose leaves to the operator.
 */
export const OVERRIDDEN = {
  migrate: ['DATABASE_URL'],
  'api-1': ['DATABASE_URL', 'REDIS_URL', 'S3_ENDPOINT', 'PORT'],
  'api-2': ['DATABASE_URL', 'REDIS_URL', 'S3_ENDPOINT', 'PORT'],
  web: ['API_URL', 'REDIS_URL', 'WEB_API_KEY', 'SESSION_SECRET'],
};

/** The names of compose's services, which the containers reach at 127.0.0.1 (`--add-host`). */
export const HOST_NAMES = ['postgres', 'redis', 'object-store', 'proxy'];

/** A health check's command with the port it probes (compose's) replaced by the test's. */
export const healthCommand = (service, port) => {
  const [kind, ...command] = service.healthcheck.test;
  if (kind !== 'CMD') {
    throw new Error(`unexpected health check ${kind}`);
  }
  return command.map((part) => part.replace(/127\.0\.0\.1:(4000|3000)\//, `127.0.0.1:${port}/`));
};

/**
 * compose's environment of `name` with `values` in place of the overridden variables; throws if
 * an override is not one OVERRIDDEN names, so every other value is compose's own.
 */
export const environmentOf = (service, name, values) => {
  const unexpected = Object.keys(values).filter((key) => !OVERRIDDEN[name].includes(key));
  if (unexpected.length > 0) {
    throw new Error(`${name}: ${unexpected.join(', ')} would differ from compose`);
  }
  return { ...service.environment, ...values };
};
