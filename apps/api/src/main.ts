import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { printedCommand } from '@pets/contract/rules';
import { createPool, createPrismaClient, migrate, openDatabase, seedDatabase } from '@pets/db';
import { ApiKeysRepository } from '@pets/store/api-keys.repository';
import { CategoriesRepository } from '@pets/store/categories.repository';
import { ensureDemoKey } from './api-keys/demo-key';
import { createApp } from './app';
import { ConfigError, loadConfig, poolTimeouts, type TConfig } from './config';
import { assertDatabaseEnvironment } from './core/database-environment';
import { connectionBoundWarning, drainOf } from './http/connections';
import { createAccessLogDestination, createLogger, flushed } from './logging/logger';

const readConfig = (): TConfig => {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
};

/** The process's resource limits (Linux), for the connection bound's check. */
const readLimits = (): string | undefined => {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return undefined;
  }
};

/** Printed once, to the console only (never to the logs): the key exists nowhere else. */
const printDemoKey = (key: string, baseUrl: string, config: TConfig) => {
  process.stdout.write(
    [
      '',
      'A demo API key was created for this new database. It is shown only this once:',
      '',
      `  ${key}`,
      '',
      'Try it:',
      '',
      `  curl -i -H "Authorization: Bearer ${key}" "${baseUrl}/pets?limit=5"`,
      '',
      // As it runs from a new shell, where this one's DATA_DIR is gone.
      `More keys: ${printedCommand('pnpm keys create --plan free --name "my app"', config)}`,
      '',
    ].join('\n'),
  );
};

const main = async () => {
  const config = readConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const accessLogDestination = createAccessLogDestination();
  const accessLogger = createLogger(config.LOG_LEVEL, accessLogDestination);
  const database = await openDatabase(config, {
    role: 'server',
    onInfo: (message) => logger.info(message),
  });
  logger.info({ database: database.label }, 'database opened');
  if (!database.isEmbedded) {
    const { applied } = await migrate(database.url);
    logger.info({ applied }, 'migrations applied');
  }
  // Idle-connection errors ignored (a query that meets a broken connection fails by itself); every
  // connection bounded by the statement timeout, so a hung database costs a bounded wait.
  const pool = createPool(database.url, config.DATABASE_POOL_SIZE, undefined, poolTimeouts(config));
  const apiKeys = new ApiKeysRepository(pool);
  // Recorded by the first run, refused when it differs: one line naming both (main's catch).
  await assertDatabaseEnvironment(pool, config.APP_ENV);

  // The embedded default is a developer's database: give it animals to browse and a key to try.
  let demoKey: string | null = null;
  if (database.isEmbedded) {
    if ((await new CategoriesRepository(pool).list()).length === 0) {
      // Prisma's client (and its query engine, ~37 MB) only for the seed, and gone after it: the
      // serving process runs every query on the pool (docs/decisions.md, "Prisma at run time").
      const prisma = createPrismaClient(pool);
      try {
        const seeded = await seedDatabase(prisma);
        logger.info(seeded, 'demo content added to the new database');
      } finally {
        await prisma.$disconnect();
      }
    }
    demoKey = await ensureDemoKey(pool, config.APP_ENV);
  }

  const app = await createApp({
    config,
    pool,
    logger,
    accessLogger,
    apiKeyLookup: (hash) => apiKeys.findByHash(hash),
  });
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const baseUrl = `http://localhost:${port}/v1`;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      return;
    }
    stopping = true;
    const timeoutSeconds = config.SHUTDOWN_TIMEOUT_SECONDS;
    logger.info(
      { signal, timeoutSeconds },
      'shutting down: accepting no new connections, finishing in-flight requests',
    );
    try {
      // First the connections, while everything a request needs (database, Redis) is still up:
      // no new connections; each request already sent is answered, with `Connection: close`;
      // idle keep-alive connections are closed once quiet, never while a request arrives on them
      // (http/connections.ts). Requests still running after the timeout lose their connections;
      // the database is closed cleanly all the same.
      await drainOf(app.getHttpServer()).drain({
        timeoutMs: timeoutSeconds * 1000,
        onTimeout: () =>
          logger.warn(
            { timeoutSeconds },
            'in-flight requests did not finish in time: closing them',
          ),
      });
      logger.info('connections closed');
      // Nest's shutdown hooks, while the pool is still open: among them the last flush of the
      // usage counts (usage/usage-counter.ts) and the job queue's stop.
      await app.close();
      // Every request has been answered: its access line goes out before the last lines.
      await flushed(accessLogDestination);
      await pool.end();
      // The embedded database: stops serving it and flushes PGlite to disk.
      await database.close();
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  // Heard before the "listening" line is written: a SIGTERM sent as soon as it is read (a
  // supervisor, a test) would otherwise meet Node's default action and kill the process mid-line.
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  // Before the "listening" line: whatever waits for that line (a test, a supervisor's log) finds
  // the key already printed.
  if (demoKey) {
    printDemoKey(demoKey, baseUrl, config);
  }
  logger.info({ url: baseUrl, port, environment: config.APP_ENV }, 'API listening');
  const bound = connectionBoundWarning(config.MAX_CONNECTIONS, readLimits());
  if (bound) {
    logger.warn(
      bound,
      'MAX_CONNECTIONS is not below the open-files limit (ulimit -n) less 100: raise the limit or lower MAX_CONNECTIONS',
    );
  }
};

main().catch((error: unknown) => {
  process.stderr.write(
    `The API could not start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
