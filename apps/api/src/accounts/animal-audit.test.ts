import { FirstPartyHeader } from '@pets/contract';
import { type TAuditEntry, ZAuditEntry, ZPetAuditDetails } from '@pets/contract/site';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestApi, type TTestApi } from '../test/api-harness';
import {
  ACCOUNT_TEST_ENV,
  createAccount,
  signInAs,
  type TTestAccount,
  type TTestSite,
  testSite,
} from './accounts.test-support';

/**
 * The audit log covers animals: each write to an animal or its photos by a staff person (or a
 * script's staff key) is an entry naming who, written in the write's own transaction; a partner
 * key's writes are not audited. An admin reads one animal's history with the target filter.
 */

let api: TTestApi;
let site: TTestSite;
let anna: TTestAccount;
let annaCredential: string;
let adminCredential: string;
let partner: string;
let categoryId: number;

beforeAll(async () => {
  api = await startTestApi({ env: ACCOUNT_TEST_ENV });
  site = await testSite(api);
  anna = await createAccount(api, 'staff', { name: 'Anna Ortiz' });
  annaCredential = (await signInAs(site, anna)).credential;
  adminCredential = (await signInAs(site, await createAccount(api, 'admin'))).credential;
  partner = await api.createKey({ name: 'Shelter partner' });
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Dogs' } })).id);
}, 60_000);

afterAll(async () => {
  await api?.close();
});

/** A request as Anna makes it through the site: her credential, the site's key beside it. */
const asAnna = (path: string, init: RequestInit = {}) =>
  api.fetch(path, {
    ...init,
    key: annaCredential,
    headers: {
      ...(init.headers as Record<string, string>),
      [FirstPartyHeader.firstPartyKey]: site.key,
    },
  });

const png = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 90, b: 30 } } })
    .png()
    .toBuffer();

const created = async (response: Response): Promise<{ id: number }> => {
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number };
};

/** The audit log as an admin reads it at /internal/audit with this query. */
const auditLog = async (query: string): Promise<TAuditEntry[]> => {
  const response = await site.asPerson(adminCredential, `/internal/audit?${query}`);
  expect(response.status).toBe(200);
  const { entries } = (await response.json()) as { entries: unknown[] };
  return entries.map((entry) => ZAuditEntry.parse(entry));
};

const historyOf = (petId: number) => auditLog(`targetType=pet&targetId=${petId}`);

describe("an animal's history in the audit log", () => {
  it("names the person for each create, update, status change, photo added and removed, in the animal's own filter", async () => {
    const rex = await created(await asAnna('/v1/pets', json({ name: 'Rex', categoryId })));
    const changed = await asAnna(
      `/v1/pets/${rex.id}`,
      json({ goodWithCats: true, breed: 'Collie' }, { method: 'PATCH' }),
    );
    expect(changed.status).toBe(200);
    // The same values again change nothing, and record nothing.
    const again = await asAnna(
      `/v1/pets/${rex.id}`,
      json({ goodWithCats: true }, { method: 'PATCH' }),
    );
    expect(again.status).toBe(200);
    const held = await asAnna(
      `/v1/pets/${rex.id}`,
      json({ status: 'pending' }, { method: 'PATCH' }),
    );
    expect(held.status).toBe(200);
    const photo = await created(
      await asAnna(`/v1/pets/${rex.id}/photos`, {
        method: 'POST',
        body: new Uint8Array(await png()),
        headers: { 'content-type': 'image/png' },
      }),
    );
    const removed = await asAnna(`/v1/pets/${rex.id}/photos/${photo.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    // Another animal of hers stays out of Rex's history.
    const max = await created(await asAnna('/v1/pets', json({ name: 'Max', categoryId })));

    const history = await historyOf(rex.id);
    expect(history.map((entry) => entry.action)).toEqual([
      'pet.photo_removed',
      'pet.photo_added',
      'pet.status_changed',
      'pet.updated',
      'pet.created',
    ]);
    for (const entry of history) {
      expect(entry).toMatchObject({
        actorName: 'Anna Ortiz',
        actorAccountId: anna.id,
        targetType: 'pet',
        targetId: String(rex.id),
      });
      expect(ZPetAuditDetails.parse(entry.details).name).toBe('Rex');
    }
    const [photoRemoved, photoAdded, statusChanged, updated] = history;
    expect(updated?.details.changes).toEqual([
      { field: 'breed', from: null, to: 'Collie' },
      { field: 'goodWithCats', from: null, to: true },
    ]);
    expect(statusChanged?.details.changes).toEqual([
      { field: 'status', from: 'available', to: 'pending' },
    ]);
    expect(photoAdded?.details.photoId).toBe(photo.id);
    expect(photoRemoved?.details.photoId).toBe(photo.id);

    expect((await historyOf(max.id)).map((entry) => entry.action)).toEqual(['pet.created']);
    // The person filter and the target filter together.
    const annasOnRex = await auditLog(`actor=${anna.id}&targetType=pet&targetId=${rex.id}`);
    expect(annasOnRex).toHaveLength(5);
    const annasUpdates = await auditLog(`actor=${anna.id}&action=pet.updated`);
    expect(annasUpdates.map((entry) => entry.targetId)).toEqual([String(rex.id)]);
  });

  it('a rename is recorded under the new name, with the old one in the change', async () => {
    const pet = await created(await asAnna('/v1/pets', json({ name: 'Bramble', categoryId })));
    const renamed = await asAnna(
      `/v1/pets/${pet.id}`,
      json({ name: 'Bramble Jr', energyLevel: 'high' }, { method: 'PATCH' }),
    );
    expect(renamed.status).toBe(200);
    const [entry] = await historyOf(pet.id);
    expect(entry?.action).toBe('pet.updated');
    expect(entry?.details).toEqual({
      name: 'Bramble Jr',
      changes: [
        { field: 'name', from: 'Bramble', to: 'Bramble Jr' },
        { field: 'energyLevel', from: null, to: 'high' },
      ],
    });
  });

  it("a partner key's animal and photo are not audited; a script's staff key is, by the key's name", async () => {
    const partners = await created(
      await api.fetch('/v1/pets', json({ name: 'Partner pup', categoryId }, { key: partner })),
    );
    const photo = await api.fetch(`/v1/pets/${partners.id}/photos`, {
      method: 'POST',
      key: partner,
      body: new Uint8Array(await png()),
      headers: { 'content-type': 'image/png' },
    });
    expect(photo.status).toBe(201);
    expect(await historyOf(partners.id)).toEqual([]);

    const script = await api.createKey({ name: 'Nightly import', role: 'staff' });
    const changed = await api.fetch(
      `/v1/pets/${partners.id}`,
      json({ vaccinated: false }, { method: 'PATCH', key: script }),
    );
    expect(changed.status).toBe(200);
    expect(await historyOf(partners.id)).toEqual([
      expect.objectContaining({
        action: 'pet.updated',
        actorName: 'Nightly import',
        actorAccountId: null,
        details: {
          name: 'Partner pup',
          changes: [{ field: 'vaccinated', from: null, to: false }],
        },
      }),
    ]);
  });

  it('a refused change writes no entry', async () => {
    const pet = await created(await asAnna('/v1/pets', json({ name: 'Pippin', categoryId })));
    const refused = await asAnna(
      `/v1/pets/${pet.id}`,
      json({ name: 'Pip', categoryId: 999_999 }, { method: 'PATCH' }),
    );
    expect(refused.status).toBe(400);
    const missing = await asAnna(`/v1/pets/${pet.id}/photos/999999`, { method: 'DELETE' });
    expect(missing.status).toBe(404);
    expect((await historyOf(pet.id)).map((entry) => entry.action)).toEqual(['pet.created']);
  });

  it('refuses a malformed target filter with 400', async () => {
    const response = await site.asPerson(adminCredential, '/internal/audit?targetType=Pet!');
    expect(response.status).toBe(400);
  });
});
