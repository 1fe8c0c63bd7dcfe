import { PHOTO_MAX_BYTES } from '@pets/contract/rules';
import type { NextConfig } from 'next';
import { devOrigins } from './src/edge/dev-origins';

/**
 * Server actions take bodies up to 1 MB by default; a staff member's photo goes through one
 * (app/staff/(back-office)/animals/[id]/photo-actions.ts), up to the API's photo limit. The margin
 * lets a file a little over the limit arrive, so the action can say in words that it is too large
 * (the browser's own check says so before sending, when JavaScript runs).
 */
const SERVER_ACTION_BODY_LIMIT_BYTES = PHOTO_MAX_BYTES + 1024 * 1024;

/**
 * The site is server-rendered at request time (every page reads the API), so there is nothing to
 * prerender and `next build` never needs a running API. Configuration is read at run time in
 * src/env.ts, never inlined at build time.
 */
const nextConfig: NextConfig = {
  poweredByHeader: false,
  // The site's types are checked once, by its `typecheck` task (`next typegen && tsc --noEmit`,
  // part of `pnpm test` and CI), not a second time inside every build: a minute of a core
  // (docs/development.md, "How long the tests take").
  typescript: { ignoreBuildErrors: true },
  // Live reload at every address `pnpm dev` can be opened at, not only localhost (dev-origins.ts).
  allowedDevOrigins: devOrigins(),
  reactStrictMode: true,
  // The data cache of the public reads (lib/api.ts) lives in this process's memory, bounded, and
  // never on disk: no visitor can grow it without end by searching for new words, and instances
  // built from one folder never read each other's answers.
  cacheMaxMemorySize: 32 * 1024 * 1024,
  serverExternalPackages: ['ioredis', 'rate-limiter-flexible'],
  experimental: {
    serverActions: { bodySizeLimit: SERVER_ACTION_BODY_LIMIT_BYTES },
    isrFlushToDisk: false,
  },
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
        ],
      },
    ];
  },
};

export default nextConfig;
