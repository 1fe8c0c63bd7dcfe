import { resolve } from 'node:path';
import { parseStoreConfig, StoreConfigError, type TStoreConfig } from '@pets/contract/store';
import next from 'next';
import { ConfigError, parseWebConfig, type TWebConfig } from '../config';
import { createEdgeServer } from './edge';
import { closeSharedRedis, sharedRedisReady } from './limiter';

/**
 * The site's server: its edge (edge.ts) in front of Next.js, for `pnpm start`, `pnpm dev` and the
 * image.
 *
 *   node dist/edge/server.js [--dev] [--port 3000] [--hostname 0.0.0.0]
 */
const WEB_DIR = resolve(__dirname, '..', '..');

const argument = (name: string): string | undefined => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
};

const main = async () => {
  let config: TWebConfig;
  let store: TStoreConfig;
  try {
    // With env.ts, the one place the site reads its environment (this process serves Next.js).
    config = parseWebConfig(process.env);
    store = parseStoreConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof StoreConfigError) {
      console.error(`[web] ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const isDev = process.argv.includes('--dev');
  const port = Number(argument('port') ?? 3000);
  const hostname = argument('hostname') ?? '0.0.0.0';
  const app = next({ dev: isDev, dir: WEB_DIR, hostname, port });
  const handle = app.getRequestHandler();
  await Promise.all([app.prepare(), sharedRedisReady(config)]);
  const server = createEdgeServer(
    config,
    (request, response) => handle(request, response),
    isDev,
    store,
  );
  server.listen(port, hostname, () => {
    process.stdout.write(
      `[web] the site listens on http://${hostname}:${port} (${isDev ? 'development' : 'production'})\n`,
    );
  });
  const stop = () => {
    server.close();
    server.closeIdleConnections();
    void closeSharedRedis().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
};

if (require.main === module) {
  void main();
}
