import { describe, expect, it } from 'vitest';
import { fromHeapProfile, summarise } from './profile';

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });

describe('an allocation profile (pnpm bench --alloc)', () => {
  it('is summarised in bytes, each charged to what the request was doing', () => {
    // (root) > a pg row parser that allocates 3,000 bytes > Node's Buffer code (1,000 more, charged
    // to pg, its caller); (root) > the rate limiter's store (500) > ioredis (250).
    const heap = {
      head: {
        id: 1,
        callFrame: frame('(root)', ''),
        selfSize: 0,
        children: [
          {
            id: 2,
            callFrame: frame('parseRow', '/repo/node_modules/pg/lib/result.js'),
            selfSize: 3_000,
            children: [
              {
                id: 3,
                callFrame: frame('toString', 'node:buffer'),
                selfSize: 1_000,
                children: [],
              },
            ],
          },
          {
            id: 4,
            callFrame: frame('consume', '/repo/apps/api/dist/rate-limit/redis.store.js'),
            selfSize: 500,
            children: [
              {
                id: 5,
                callFrame: frame('sendCommand', '/repo/node_modules/ioredis/built/Redis.js'),
                selfSize: 250,
                children: [],
              },
            ],
          },
        ],
      },
    };
    const summary = summarise(fromHeapProfile(heap));
    expect(summary.busyMs).toBe(4_750);
    expect(summary.byBucket).toEqual([
      { name: 'SQL (pg + ours)', selfMs: 4_000, share: 84.2 },
      { name: 'rate limiter (ioredis + ours)', selfMs: 750, share: 15.8 },
    ]);
  });
});
