import { describe, expect, it } from 'vitest';
import { startApiProcess } from '../test/api-process';
import { testDatabase } from '../test/test-database';
import { connectionBoundWarning, openFilesLimit } from './connections';

const LIMITS = (soft: string) =>
  [
    'Limit                     Soft Limit           Hard Limit           Units     ',
    'Max processes             unlimited            unlimited            processes ',
    `Max open files            ${soft.padEnd(20)} 1048576              files     `,
  ].join('\n');

describe('the connection bound against the open-files limit', () => {
  it('reads the soft limit', () => {
    expect(openFilesLimit(LIMITS('1024'))).toBe(1024);
    expect(openFilesLimit(LIMITS('unlimited'))).toBeUndefined();
    expect(openFilesLimit('')).toBeUndefined();
  });

  it('warns when MAX_CONNECTIONS leaves no room for the pool and Redis', () => {
    expect(connectionBoundWarning(10_000, LIMITS('1024'))).toEqual({
      maxConnections: 10_000,
      openFilesLimit: 1024,
    });
    expect(connectionBoundWarning(10_000, LIMITS('65536'))).toBeUndefined();
    expect(connectionBoundWarning(10_000, undefined)).toBeUndefined();
  });
});

describe('the built API', () => {
  const database = testDatabase();
  it('says so at start when MAX_CONNECTIONS is above what the process may open', async () => {
    await database.create();
    try {
      const api = await startApiProcess({ DATABASE_URL: database.url, MAX_CONNECTIONS: '1000000' });
      api.child.kill('SIGTERM');
      expect(await api.exited).toBe(0);
      expect(api.logs()).toContainEqual(
        expect.objectContaining({ level: 40, maxConnections: 1_000_000 }),
      );
    } finally {
      await database.drop();
    }
  });
});
