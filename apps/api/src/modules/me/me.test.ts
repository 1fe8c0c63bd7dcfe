import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, useTestApi } from '../../test/api-harness';

/** getCurrentKey (GET /v1/me): any valid key describes itself; nothing secret in the answer. */

const api = useTestApi();
let staff: string;
let partner: string;
let readOnly: string;

beforeAll(async () => {
  staff = await api.createKey({ name: 'Front desk', role: 'staff' });
  partner = await api.createKey({ name: 'Partner shelter', plan: 'pro' });
  readOnly = await api.createKey({ name: 'Kiosk', readOnly: true });
});

describe('getCurrentKey', () => {
  it('tells a staff key its name, start, role, read-only flag and plan', async () => {
    const response = await api.fetch('/v1/me', { key: staff });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      name: 'Front desk',
      start: staff.slice(0, String(body.start).length),
      role: 'staff',
      readOnly: false,
      plan: 'business',
      firstParty: false,
      owner: null,
      mode: 'live',
      expiresAt: null,
    });
    expect(String(body.start).length).toBeLessThan(staff.length);
    expect(JSON.stringify(body)).not.toContain(staff);
  });

  it("tells the site's key that it is first-party, and every other key that it is not", async () => {
    const site = await api.createKey({ name: 'Site', plan: 'business', firstParty: true });
    expect(await (await api.fetch('/v1/me', { key: site })).json()).toMatchObject({
      name: 'Site',
      role: 'partner',
      plan: 'business',
      firstParty: true,
    });
    expect(await (await api.fetch('/v1/me', { key: partner })).json()).toMatchObject({
      firstParty: false,
    });
  });

  it('answers partner and read-only keys too (a GET), with their own role', async () => {
    expect(await (await api.fetch('/v1/me', { key: partner })).json()).toMatchObject({
      name: 'Partner shelter',
      role: 'partner',
      readOnly: false,
      plan: 'pro',
    });
    expect(await (await api.fetch('/v1/me', { key: readOnly })).json()).toMatchObject({
      name: 'Kiosk',
      role: 'partner',
      readOnly: true,
    });
  });

  it('is 401 without a key, with an unknown key, and with a revoked one', async () => {
    expect(await errorBody(await api.fetch('/v1/me', { key: null }))).toMatchObject({
      code: 'unauthorized',
    });
    const unknown = `${staff.slice(0, -4)}0000`;
    expect((await api.fetch('/v1/me', { key: unknown })).status).toBe(401);
    const revoked = await api.createKey({ name: 'Gone', role: 'staff' });
    await api.apiKeys.revoke(revoked.slice(0, revoked.indexOf('_', 5) + 5));
    const response = await api.fetch('/v1/me', { key: revoked });
    expect(response.status).toBe(401);
  });
});
