import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TTestApi, type TTestApiOptions } from '../test/api-harness';
import {
  ACCOUNT_TEST_ENV,
  createAccount,
  signInAs,
  type TTestSite,
  testSite,
} from './accounts.test-support';

/**
 * The sign-in throttling of §2.5 (docs/decisions.md, "Sign-in throttling"), at its default numbers
 * (10 failures per account and visitor in 15 minutes, 50 per account in an hour), on whichever
 * rate-limit store the options choose: the same suite runs on memory and on Redis.
 */
export const describeSignInThrottling = (title: string, options: TTestApiOptions = {}): void => {
  describe(title, () => {
    let api: TTestApi;
    let site: TTestSite;

    beforeAll(async () => {
      api = await startTestApi({ ...options, env: { ...ACCOUNT_TEST_ENV, ...options.env } });
      site = await testSite(api);
    }, 60_000);

    afterAll(async () => {
      await api?.close();
    });

    const attempt = (
      account: { email: string },
      password: string,
      visitor: string,
      deviceToken?: string,
    ) =>
      site.asVisitor(
        '/internal/auth/sign-in',
        { email: account.email, password, area: 'staff', ...(deviceToken ? { deviceToken } : {}) },
        visitor,
      );

    const fail = async (account: { email: string }, visitor: string, times: number) => {
      for (let index = 0; index < times; index++) {
        expect((await attempt(account, 'a wrong password', visitor)).status).toBe(401);
      }
    };

    it('10 failures from one visitor refuse that visitor only; another still signs in', async () => {
      const staff = await createAccount(api, 'staff');
      await fail(staff, '198.51.100.1', 10);
      const refused = await attempt(staff, staff.password, '198.51.100.1');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toMatchObject({ code: 'rate_limited', status: 429 });
      expect((await attempt(staff, staff.password, '198.51.100.2')).status).toBe(200);
      // Another account from the refused visitor is not affected.
      const other = await createAccount(api, 'staff');
      expect((await attempt(other, other.password, '198.51.100.1')).status).toBe(200);
    });

    it('50 failures across visitors refuse new visitors, but not a device that signed in before', async () => {
      const staff = await createAccount(api, 'staff');
      const { deviceToken } = await signInAs(site, staff, { visitor: '192.0.2.200' });
      for (let visitor = 1; visitor <= 5; visitor++) {
        await fail(staff, `192.0.2.${visitor}`, 10);
      }
      const stranger = await attempt(staff, staff.password, '192.0.2.50');
      expect(stranger.status).toBe(429);
      expect(((await stranger.json()) as { message: string }).message).toContain(
        'device you have signed in from',
      );
      const knownDevice = await attempt(staff, staff.password, '192.0.2.51', deviceToken);
      expect(knownDevice.status).toBe(200);
      // A device token of another account proves nothing here.
      const other = await createAccount(api, 'staff');
      const otherDevice = (await signInAs(site, other)).deviceToken;
      expect((await attempt(staff, staff.password, '192.0.2.52', otherDevice)).status).toBe(429);
      // That success reset nothing: a stranger is still refused.
      expect((await attempt(staff, staff.password, '192.0.2.53')).status).toBe(429);
    });

    it("never spends the site key's failed-authentication budget", async () => {
      const staff = await createAccount(api, 'staff');
      await fail(staff, '198.51.100.9', 10);
      expect((await attempt(staff, 'a wrong password', '198.51.100.9')).status).toBe(429);
      const pets = await site.asVisitor('/v1/pets?limit=1', undefined, '198.51.100.9');
      expect(pets.status).toBe(200);
      const anonymous = await api.fetch('/v1/pets?limit=1', { key: null });
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toMatchObject({ code: 'unauthorized' });
    });
  });
};
