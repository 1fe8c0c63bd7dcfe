import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, runProcess, startProcess, type TManagedProcess } from './processes';

const node = (script: string, env: NodeJS.ProcessEnv = {}) =>
  startProcess({ name: 'child', command: process.execPath, args: ['-e', script], env });

/** Running, not a zombie (an orphan's zombie stays until PID 1 reaps it, if it ever does). */
const isAlive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

const started: TManagedProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((child) => child.stop(500)));
});

describe('startProcess', () => {
  it('passes only the given environment and captures both streams', async () => {
    const child = node('console.log(process.env.GREETING, process.env.HOME); console.error("e")', {
      GREETING: 'hello',
    });
    const exit = await child.exited;
    expect(exit).toMatchObject({ code: 0, signal: null, stdout: 'hello undefined\n' });
    expect(exit.stderr).toBe('e\n');
    expect(child.tail()).toBe('hello undefined\n[stderr] e');
  });

  it('hands out the child as a plain ChildProcess, not a promise of its end', async () => {
    const child = node('setInterval(() => {}, 1000)');
    started.push(child);
    const returned = await (async () => child.child)();
    expect(returned.pid).toBe(child.pid);
    expect('then' in returned).toBe(false);
  });

  it('waits for a line, already printed or still to come', async () => {
    const child = node('console.log("booting"); setTimeout(() => console.log("ready on 7"), 200)');
    started.push(child);
    expect(await child.waitForLine(/ready on \d+/)).toBe('ready on 7');
    expect(await child.waitForLine('booting')).toBe('booting');
  });

  it('waits for a line of one stream only, when asked to', async () => {
    const child = node('console.error("already up?"); setTimeout(() => console.log("ready"), 100)');
    started.push(child);
    expect(await child.waitForLine('ready', { stream: 'stdout' })).toBe('ready');
    expect(await child.waitForLine('ready', { stream: 'stderr' })).toBe('already up?');
  });

  it('fails a wait with the last output when the process ends first', async () => {
    const child = node('console.error("cannot start: no config"); process.exit(3)');
    await expect(child.waitForLine('ready', { timeoutMs: 5_000 })).rejects.toThrow(
      /child exited \(exit code 3\) before .*\n\[stderr\] cannot start: no config/,
    );
  });

  it('fails a wait after its timeout, quoting the output', async () => {
    const child = node('console.log("still booting"); setInterval(() => {}, 1000)');
    started.push(child);
    // Node may take longer than the timeout to start on a busy machine: let it speak first.
    await child.waitForLine('still booting', { timeoutMs: 30_000 });
    await expect(child.waitForLine('ready', { timeoutMs: 300 })).rejects.toThrow(
      /no line matching ready within 0.3 s.*\nstill booting/s,
    );
  });

  it('keeps only the last lines when asked to', async () => {
    const child = startProcess({
      name: 'chatty',
      command: process.execPath,
      args: ['-e', 'for (let i = 1; i <= 100; i++) console.log(i)'],
      keepOutput: false,
      tailLines: 3,
    });
    expect((await child.exited).stdout).toBe('98\n99\n100');
  });

  it('waits until a URL answers', async () => {
    const port = await freePort();
    const child = node(
      `setTimeout(() => require('node:http').createServer((q, s) => s.end('ok')).listen(${port}), 300)`,
    );
    started.push(child);
    await child.waitForHttp(`http://127.0.0.1:${port}/`, { timeoutMs: 10_000 });
    // Starting node alone took over 5 s on a CI machine busy with the rest of the suite.
  }, 20_000);

  it('stops gracefully with SIGTERM, and with SIGKILL after the grace period', async () => {
    const polite = node(
      'process.on("SIGTERM", () => { console.log("bye"); process.exit(0) }); ' +
        'setInterval(() => {}, 1000); console.log("up")',
    );
    await polite.waitForLine('up');
    expect(await polite.stop()).toMatchObject({ code: 0, stdout: 'up\nbye\n' });

    const stubborn = node(
      'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000); console.log("up")',
    );
    await stubborn.waitForLine('up');
    const stoppedAt = Date.now();
    expect((await stubborn.stop(300)).signal).toBe('SIGKILL');
    expect(Date.now() - stoppedAt).toBeLessThan(3_000);
  });

  it('stops the whole process group, grandchildren included', async () => {
    const child = node(
      `const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
       console.log('grandchild', c.pid); setInterval(() => {}, 1000);`,
    );
    const line = await child.waitForLine(/^grandchild \d+$/);
    const grandchild = Number(line.split(' ')[1]);
    expect(isAlive(grandchild)).toBe(true);
    await child.stop();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isAlive(grandchild)).toBe(false);
  });
});

describe('runProcess', () => {
  it('runs to the end, or kills the process after its timeout', async () => {
    expect(
      await runProcess({ name: 'ok', command: process.execPath, args: ['-e', 'process.exit(2)'] }),
    ).toMatchObject({ code: 2, description: 'exit code 2' });
    expect(
      await runProcess({
        name: 'slow',
        command: process.execPath,
        args: ['-e', 'setInterval(() => {}, 1000)'],
        timeoutMs: 200,
      }),
    ).toMatchObject({ code: null, signal: 'SIGKILL' });
  });

  it('reports a command that cannot start', async () => {
    const exit = await runProcess({ name: 'missing', command: 'no-such-command-here' });
    expect(exit.code).toBeNull();
    expect(exit.description).toMatch(/^failed to start: .*ENOENT/);
  });

  it('finds commands on the PATH it is given', async () => {
    const exit = await runProcess({
      name: 'sh',
      command: 'sh',
      args: ['-c', 'echo $0'],
      env: { PATH: process.env.PATH },
    });
    expect(exit).toMatchObject({ code: 0, stdout: 'sh\n' });
  });
});

/** Node arguments of a parent that starts a sleeper through this module, prints its pid, then runs `then`. */
const parentOfSleeper = (then: string) => [
  '-e',
  `const { startProcess } = require(${JSON.stringify(require.resolve('../dist/index.js'))});
   const c = startProcess({ name: 'sleeper', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] });
   console.log(c.pid); ${then}`,
];

describe('leftovers', () => {
  it('a parent that exits without stopping its children takes them along', async () => {
    // The parent starts a sleeper through this module and exits at once, stopping nothing.
    const parent = await runProcess({
      name: 'parent',
      command: process.execPath,
      args: parentOfSleeper('setTimeout(() => process.exit(0), 200);'),
      env: { PATH: process.env.PATH },
    });
    const sleeper = Number(parent.stdout.trim());
    expect(sleeper).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isAlive(sleeper)).toBe(false);
  });

  it('so does a parent ended by SIGTERM', async () => {
    const parent = startProcess({
      name: 'parent',
      command: process.execPath,
      args: parentOfSleeper('setInterval(() => {}, 1000);'),
      env: { PATH: process.env.PATH },
    });
    const sleeper = Number(await parent.waitForLine(/^\d+$/));
    // Only the parent, not its group: the cleanup is the parent's own doing.
    parent.child.kill('SIGTERM');
    expect((await parent.exited).signal).toBe('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isAlive(sleeper)).toBe(false);
  });
});
