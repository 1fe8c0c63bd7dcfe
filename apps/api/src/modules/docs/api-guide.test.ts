import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '@pets/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiProcess, type TApiProcess } from '../../test/api-process';
import { runCliProcess } from '../../test/cli-process';

/**
 * docs/api.md promises that its examples run as written, in order, on a fresh `pnpm start`. This
 * runs every ```sh block marked `<!-- runs-in-test -->` with bash against the built API on a new
 * embedded database (what `pnpm start` gives a newcomer), with the keys that start printed: each
 * command must exit 0, and one whose comment names a status (`# 201 Created: ...`) must get it.
 */
const REPO = join(__dirname, '..', '..', '..', '..', '..');
const API_MD = readFileSync(join(REPO, 'docs', 'api.md'), 'utf8');
/** The README's five lines of API, run the same way (after the guide's, which count on fresh ids). */
const README_MD = readFileSync(join(REPO, 'README.md'), 'utf8');

/** The address the doc uses (a default `pnpm start`), replaced by the test API's. */
const DOC_ADDRESS = 'http://localhost:4000';

type TCommand = { text: string; status?: string };

/** The marked blocks, each as its commands (lines joined at a trailing backslash). */
const markedBlocks = (markdown: string): TCommand[][] =>
  [...markdown.matchAll(/<!-- runs-in-test -->\n```sh\n([\s\S]*?)\n```/g)].map((match) => {
    const logical = (match[1] ?? '').replace(/\\\n/g, ' ').split('\n');
    return logical
      .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'))
      .map((text) => {
        // A trailing comment that starts with a status line's code and reason: "# 201 Created: ...".
        const status = /\s#\s+(\d{3} [A-Z][A-Za-z ]*?)(?::|$)/.exec(text)?.[1]?.trim();
        return status === undefined ? { text } : { text, status };
      });
  });

type TRun = { command: TCommand; code: string; stdout: string; stderr: string };

let dataDir: string;
let workDir: string;
let api: TApiProcess | undefined;
let keys: { partner: string; staff: string };

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pets-api-guide-'));
  workDir = await mkdtemp(join(tmpdir(), 'pets-api-guide-run-'));
  // "biscuit.jpg is a photo of yours": here, one made now.
  await sharp({ create: { width: 640, height: 480, channels: 3, background: '#c88c50' } })
    .jpeg()
    .toFile(join(workDir, 'biscuit.jpg'));
  const env = { DATA_DIR: dataDir, APP_ENV: 'production' };
  api = await startApiProcess(env, 120_000);
  // What a fresh `pnpm start` prints (the API's demo key), and a staff key for scripts.
  const partner = /^\s+(pets_live_\S+)$/m.exec(api.stdout())?.[1] ?? '';
  const created = await runCliProcess(
    ['keys', 'create', '--plan', 'business', '--role', 'staff', '--name', 'demo staff'],
    env,
  );
  expect(created.code, created.stderr).toBe(0);
  keys = { partner, staff: created.stdout.trim().split('\n').at(-1) ?? '' };
}, 180_000);

afterAll(async () => {
  if (api) {
    api.child.kill('SIGTERM');
    await api.exited;
  }
  await rm(dataDir, { recursive: true, force: true });
  await rm(workDir, { recursive: true, force: true });
});

/** Runs the commands in one bash session (variables carry over), each one's output apart. */
const runAll = async (commands: TCommand[], baseUrl: string): Promise<TRun[]> => {
  const script = [
    'set -u',
    ...commands.map((command, index) => {
      const text = command.text
        .replaceAll(DOC_ADDRESS, baseUrl)
        .replace(/^KEY=pets_live_\.\.\./, `KEY=${keys.partner}`)
        .replace(/^STAFF_KEY=pets_live_\.\.\./, `STAFF_KEY=${keys.staff}`);
      return `{\n${text}\n} >out-${index} 2>err-${index}; echo $? >rc-${index}`;
    }),
  ].join('\n');
  await writeFile(join(workDir, 'guide.sh'), script);
  const run = await runProcess({
    name: 'bash',
    command: 'bash',
    args: ['guide.sh'],
    cwd: workDir,
    // curl from PATH; no proxy settings of ours, as on a newcomer's machine.
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    timeoutMs: 60_000,
  });
  expect(run.code, run.stderr).toBe(0);
  return Promise.all(
    commands.map(async (command, index) => {
      const read = (name: string) => readFile(join(workDir, `${name}-${index}`), 'utf8');
      return {
        command,
        code: (await read('rc')).trim(),
        stdout: await read('out'),
        stderr: await read('err'),
      };
    }),
  );
};

describe('docs/api.md', () => {
  it('defines the keys its examples use, as pnpm start prints them', () => {
    const blocks = markedBlocks(API_MD);
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const setup = (blocks[0] ?? []).map((command) => command.text);
    expect(setup).toContainEqual(expect.stringMatching(/^API=http:\/\/localhost:4000\/v1/));
    expect(setup).toContainEqual(expect.stringMatching(/^KEY=pets_live_\.\.\. /));
    expect(setup).toContainEqual(expect.stringMatching(/^STAFF_KEY=pets_live_\.\.\. /));
  });

  it('runs every marked example as written on a fresh database, with the statuses it names', {
    timeout: 120_000,
  }, async () => {
    const commands = markedBlocks(API_MD).flat();
    expect(commands.filter((command) => command.status !== undefined).length).toBeGreaterThan(20);
    const runs = await runAll(commands, api?.baseUrl ?? '');
    for (const run of runs) {
      const what = `${run.command.text}\n${run.stderr}`;
      expect(run.code, what).toBe('0');
      if (run.command.status !== undefined) {
        expect(run.stdout.split('\r\n')[0], what).toBe(`HTTP/1.1 ${run.command.status}`);
      }
    }
  });

  it("runs the README's five lines, each answering JSON that is not an error", {
    timeout: 60_000,
  }, async () => {
    const commands = markedBlocks(README_MD).flat();
    expect(commands.filter((command) => command.text.startsWith('curl')).length).toBe(3);
    const runs = await runAll(commands, api?.baseUrl ?? '');
    for (const run of runs.filter((each) => each.command.text.startsWith('curl'))) {
      expect(run.code, run.command.text).toBe('0');
      expect(run.stdout, run.command.text).toMatch(/^[[{]/);
      expect(run.stdout, run.command.text).not.toContain('"code":');
    }
    // The sync loop walked every page of the animals into changed.json, one JSON array a page.
    const walk = runs.find((each) => each.command.text.startsWith('while'));
    expect(walk?.code, walk?.stderr).toBe('0');
    const pages = readFileSync(join(workDir, 'changed.json'), 'utf8');
    expect(pages).toMatch(/^\[\{"id":/);
  });
});
