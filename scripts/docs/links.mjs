// The link check of the project's Markdown (`pnpm docs:links`, and scripts/docs/links.test.mjs):
// remark-validate-links, a well-kept checker that works offline, run by remark-cli over the
// README, ARCHITECTURE.md, CODE_STYLE.md and docs/. Every relative file and every #anchor must
// exist (anchors as GitHub makes them); http(s) links are not checked (no network here).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const MARKDOWN_FILES = ['README.md', 'ARCHITECTURE.md', 'CODE_STYLE.md', 'docs'];

/** remark-cli's arguments: quiet, nothing written, any warning an exit code of 1. */
export const remarkArgs = (files) => [
  join(ROOT, 'node_modules', 'remark-cli', 'cli.js'),
  '--no-stdout',
  '--quiet',
  '--frail',
  '--no-color',
  // No Git remote is needed: links are checked as files and headings of this checkout.
  '--use',
  `${join(ROOT, 'node_modules', 'remark-validate-links', 'index.js')}=repository:false`,
  ...files,
];
