import type { TPet } from '@pets/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, json, useTestApi } from '../../test/api-harness';

/**
 * Conditional requests over real HTTP: every GET and PATCH 200 carries an ETag; a GET with an
 * If-None-Match naming it is a 304 with no body and the rate-limit headers (and counts); an
 * updatePet with a stale If-Match is a 412 that changes nothing.
 */

const api = useTestApi();
let staff: string;
let partner: string;
let categoryId: number;

beforeAll(async () => {
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Dogs' } })).id);
  staff = await api.createKey({ name: 'Front desk', role: 'staff', plan: 'business' });
  partner = await api.createKey({ name: 'Partner', plan: 'business' });
});

const ETAG = /^"[A-Za-z0-9_-]{22}"$/;

const newPet = async (name: string): Promise<TPet> => {
  const response = await api.fetch('/v1/pets', json({ name, categoryId }, { key: staff }));
  expect(response.status).toBe(201);
  return (await response.json()) as TPet;
};

const patch = (petId: number, body: unknown, headers: Record<string, string> = {}) =>
  api.fetch(`/v1/pets/${petId}`, json(body, { key: staff, method: 'PATCH', headers }));

describe('ETag and If-None-Match', () => {
  it('answers 304 with no body and the rate-limit headers while the page is unchanged, 200 once it changed', async () => {
    const pet = await newPet('Juniper');
    const path = `/v1/pets?id=${pet.id}`;
    const first = await api.fetch(path, { key: partner });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(ETAG);

    const again = await api.fetch(path, { key: partner, headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('content-type')).toBeNull();
    // It counts: the remaining quota went down by one more.
    const remaining = Number(first.headers.get('x-ratelimit-remaining'));
    expect(Number(again.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
    expect(again.headers.get('ratelimit')).toMatch(/r=\d+/);
    expect(again.headers.get('x-request-id')).toBeTruthy();

    // Weak comparison, lists and `*` match too; another tag does not.
    for (const header of [`W/${etag}`, `"nope", ${etag}`, '*']) {
      const matched = await api.fetch(path, { key: partner, headers: { 'If-None-Match': header } });
      expect(matched.status, header).toBe(304);
    }
    const other = await api.fetch(path, {
      key: partner,
      headers: { 'If-None-Match': '"AAAAAAAAAAAAAAAAAAAAAA"' },
    });
    expect(other.status).toBe(200);

    expect((await patch(pet.id, { breed: 'Collie' })).status).toBe(200);
    const changed = await api.fetch(path, { key: partner, headers: { 'If-None-Match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(((await changed.json()) as TPet[])[0]?.breed).toBe('Collie');
  });

  it('gives every GET an ETag, the same for the same answer, and a different key the same page', async () => {
    for (const path of ['/v1/categories', '/v1/pets?limit=5', '/v1/me', '/v1/events?limit=5']) {
      const a = await api.fetch(path, { key: staff });
      expect(a.status, path).toBe(200);
      expect(a.headers.get('etag'), path).toMatch(ETAG);
      const b = await api.fetch(path, {
        key: staff,
        headers: { 'If-None-Match': a.headers.get('etag') ?? '' },
      });
      expect(b.status, path).toBe(304);
    }
    // Errors carry none.
    const missing = await api.fetch('/v1/orders/999999', { key: partner });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('etag')).toBeNull();
  });
});

describe('If-Match on updatePet', () => {
  it('changes the animal only while the ETag names its current version, else 412 and nothing changes', async () => {
    const pet = await newPet('Pepper');
    const read = await api.fetch(`/v1/pets/${pet.id}`, { key: partner });
    const etag = read.headers.get('etag') ?? '';
    expect(etag).toMatch(ETAG);

    // Someone else changes it: the version we read is stale.
    const other = await patch(pet.id, { description: 'Loves the sea.' });
    expect(other.status).toBe(200);
    const newEtag = other.headers.get('etag') ?? '';
    expect(newEtag).toMatch(ETAG);
    expect(newEtag).not.toBe(etag);

    const stale = await patch(pet.id, { name: 'Salt' }, { 'If-Match': etag });
    expect(stale.status).toBe(412);
    expect(await errorBody(stale)).toMatchObject({ code: 'precondition_failed', status: 412 });
    const after = await api.fetch(`/v1/pets/${pet.id}`, { key: partner });
    expect(((await after.json()) as TPet).name).toBe('Pepper');
    // The PATCH's own ETag is the one a GET gives: it names the current version.
    expect(after.headers.get('etag')).toBe(newEtag);

    const fresh = await patch(pet.id, { name: 'Salt' }, { 'If-Match': newEtag });
    expect(fresh.status).toBe(200);
    expect(((await fresh.json()) as TPet).name).toBe('Salt');

    // A weak tag never matches If-Match; `*` matches any version; a malformed header names none.
    const current = fresh.headers.get('etag') ?? '';
    expect((await patch(pet.id, { name: 'Pep' }, { 'If-Match': `W/${current}` })).status).toBe(412);
    expect((await patch(pet.id, { name: 'Pep' }, { 'If-Match': 'garbage' })).status).toBe(412);
    expect((await patch(pet.id, { name: 'Pep' }, { 'If-Match': '*' })).status).toBe(200);
    // Without If-Match the change is made whatever the version.
    expect((await patch(pet.id, { name: 'Pepper' })).status).toBe(200);
  });

  it('is 404 for an unknown animal whatever the condition', async () => {
    const response = await patch(
      99_999_999,
      { name: 'Ghost' },
      { 'If-Match': '"AAAAAAAAAAAAAAAAAAAAAA"' },
    );
    expect(response.status).toBe(404);
  });
});
