import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '@pets/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { MARKDOWN_FILES, ROOT, remarkArgs } from './links.mjs';

const check = (files, cwd = ROOT) =>
  runProcess({
    name: 'remark',
    command: process.execPath,
    args: remarkArgs(files),
    cwd,
    env: { PATH: process.env.PATH ?? '' },
    timeoutMs: 60_000,
  });

const folder = mkdtempSync(join(tmpdir(), 'pets-links-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('links in the Markdown', () => {
  it('every relative link and #anchor of the README, ARCHITECTURE.md, CODE_STYLE.md and docs/ exists', async () => {
    const { code, stderr } = await check(MARKDOWN_FILES);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('the check fails on a missing file and on a missing heading', async () => {
    writeFileSync(join(folder, 'other.md'), '# Other\n\n## Present\n');
    writeFileSync(
      join(folder, 'guide.md'),
      '# Guide\n\n[gone](missing.md), [no such heading](other.md#absent), [fine](other.md#present), [web](https://example.org/x)\n',
    );
    const { code, stderr } = await check(['guide.md', 'other.md'], folder);
    expect(code).toBe(1);
    expect(stderr).toContain('Cannot find file `missing.md`');
    expect(stderr).toContain('Cannot find heading for `#absent` in `other.md`');
    expect(stderr).not.toContain('present');
    expect(stderr).not.toContain('example.org');
  });
});
