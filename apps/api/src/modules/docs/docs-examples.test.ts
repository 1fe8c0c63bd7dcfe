import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ZErrorCode } from '@pets/contract';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../test/api-harness';

/** docs/errors.md: what an integrator reads before writing their error handling. */
const ERRORS_MD = readFileSync(
  join(__dirname, '..', '..', '..', '..', '..', 'docs', 'errors.md'),
  'utf8',
);

const api = useTestApi();

describe('docs/errors.md', () => {
  it('shows, as its example, the body the API really sends for GET /v1/pets?limit=101', async () => {
    const example = /```json\n([\s\S]+?)\n```/.exec(ERRORS_MD)?.[1] ?? '';
    expect(ERRORS_MD).toContain('`GET /v1/pets?limit=101`');
    const response = await api.fetch('/v1/pets?limit=101');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(JSON.parse(example));
  });

  it('lists exactly the codes of the contract, each with its HTTP status', () => {
    const rows = [...ERRORS_MD.matchAll(/^\|\s*`(\w+)`\s*\|\s*(\d{3})\s*\|/gm)].map(
      (match) => match[1],
    );
    expect(rows).toEqual(ZErrorCode.options);
  });
});
