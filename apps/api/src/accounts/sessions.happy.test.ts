import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TTestApi } from '../test/api-harness';
import {
  ACCOUNT_TEST_ENV,
  createAccount,
  signInAs,
  type TTestSite,
  testSite,
} from './accounts.test-support';

/**
 * The account page's list of sessions (issue 27: "listed on the account page"), over real HTTP
 * against the real app and database: each sign-in is a session, listed with when it started, was
 * last used and ends, and the device it came from; a person ends any of their own, and nobody
 * else's.
 */

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

type TListed = {
  id: string;
  isCurrent: boolean;
  device: string | null;
  userAgent: string | null;
  visitorIp: string | null;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
};

let api: TTestApi;
let site: TTestSite;

beforeAll(async () => {
  api = await startTestApi({ env: ACCOUNT_TEST_ENV });
  site = await testSite(api);
}, 60_000);

afterAll(async () => {
  await api?.close();
});

const sessionsOf = async (credential: string): Promise<TListed[]> => {
  const response = await site.asPerson(credential, '/internal/account/sessions');
  expect(response.status).toBe(200);
  return ((await response.json()) as { sessions: TListed[] }).sessions;
};

describe('where you are signed in', () => {
  it('lists two sign-ins as two sessions, the one asking marked as this device', async () => {
    const cleo = await createAccount(api, 'staff');
    const laptop = await signInAs(site, cleo, { userAgent: FIREFOX, visitor: '198.51.100.7' });
    const phone = await signInAs(site, cleo, { userAgent: IPHONE, visitor: '198.51.100.8' });

    const listed = await sessionsOf(phone.credential);
    expect(listed).toHaveLength(2);
    expect(listed[0]).toMatchObject({
      id: phone.session.id,
      isCurrent: true,
      device: 'Safari on iPhone',
      userAgent: IPHONE,
      visitorIp: '198.51.100.8',
      expiresAt: phone.session.expiresAt,
    });
    expect(listed[1]).toMatchObject({
      id: laptop.session.id,
      isCurrent: false,
      device: 'Firefox on Windows',
      visitorIp: '198.51.100.7',
    });
    for (const session of listed) {
      expect(Date.parse(session.createdAt)).toBeLessThanOrEqual(Date.now());
      expect(Date.parse(session.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(session.createdAt));
      expect(Date.parse(session.expiresAt)).toBeGreaterThan(Date.now());
    }
    // Asked from the other device, the other one is current.
    const fromLaptop = await sessionsOf(laptop.credential);
    expect(fromLaptop.map((session) => [session.id, session.isCurrent])).toEqual([
      [phone.session.id, false],
      [laptop.session.id, true],
    ]);
  });

  it('ends another of your sessions: its credential is refused at once and it leaves the list', async () => {
    const dev = await createAccount(api, 'developer');
    const first = await signInAs(site, dev);
    const second = await signInAs(site, dev);
    // The first credential works (and is in this process's key cache) before it is ended.
    expect((await site.asPerson(first.credential, '/internal/session')).status).toBe(200);

    const ended = await site.asPerson(
      second.credential,
      `/internal/account/sessions/${first.session.id}/revoke`,
      { method: 'POST' },
    );
    expect(ended.status).toBe(204);
    const refused = await site.asPerson(first.credential, '/internal/session');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ status: 401, code: 'unauthorized' });
    expect((await sessionsOf(second.credential)).map((session) => session.id)).toEqual([
      second.session.id,
    ]);

    // Ending it again is a 404: it is no longer open.
    const again = await site.asPerson(
      second.credential,
      `/internal/account/sessions/${first.session.id}/revoke`,
      { method: 'POST' },
    );
    expect(again.status).toBe(404);
  });

  it("cannot see or end another person's session: 404, and that session keeps working", async () => {
    const erin = await createAccount(api, 'staff');
    const finn = await createAccount(api, 'staff');
    const erins = await signInAs(site, erin);
    const finns = await signInAs(site, finn);

    expect((await sessionsOf(erins.credential)).map((session) => session.id)).not.toContain(
      finns.session.id,
    );
    const attempt = await site.asPerson(
      erins.credential,
      `/internal/account/sessions/${finns.session.id}/revoke`,
      { method: 'POST' },
    );
    expect(attempt.status).toBe(404);
    expect(await attempt.json()).toMatchObject({ status: 404, code: 'not_found' });
    expect((await site.asPerson(finns.credential, '/internal/session')).status).toBe(200);
  });

  it('leaves out a session that timed out unused', async () => {
    const gus = await createAccount(api, 'staff');
    const idle = await signInAs(site, gus, { idleSeconds: 1 });
    const current = await signInAs(site, gus);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const listed = await sessionsOf(current.credential);
    expect(listed.map((session) => session.id)).toEqual([current.session.id]);
    expect((await site.asPerson(idle.credential, '/internal/session')).status).toBe(401);
  });
});
