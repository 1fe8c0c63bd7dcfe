import type { ChildProcess } from 'node:child_process';
import { startProcess } from '@pets/testing';

export { freePort } from '@pets/testing';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A redis-server of its own on `port` (no persistence), once it accepts connections. A test that
 * has just SIGKILLed the previous one on that port may find the port still held for a moment:
 * then it tries again.
 */
export const startRedis = async (port: number): Promise<ChildProcess> => {
  for (let attempt = 1; ; attempt += 1) {
    const redis = startProcess({
      name: 'redis-server',
      command: 'redis-server',
      args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      env: process.env,
      keepOutput: false,
    });
    try {
      await redis.waitForLine('Ready to accept connections', { timeoutMs: 5_000 });
      return redis.child;
    } catch (error) {
      await redis.stop(0);
      if (attempt >= 20 || !/Address already in use/.test(redis.tail())) {
        throw new Error(`redis-server did not start: ${(error as Error).message}`);
      }
      await sleep(100);
    }
  }
};
