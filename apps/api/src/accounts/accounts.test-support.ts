import { FirstPartyHeader } from '@pets/contract';
import type { TSiteAccount } from '@pets/contract/site';
import { AccountsRepository } from '@pets/store/accounts.repository';
import { PasswordHasher } from '@pets/store/password';
import type { TTestApi } from '../test/api-harness';

/**
 * Accounts and sessions for API tests, on the real app (issue 27): people made in the test's
 * database (a fast argon2 cost, the floor), and the site's requests as the site sends them, with
 * its first-party key as the bearer or beside a person's session credential.
 */

/** What every test API of these suites runs with: the cheapest argon2 cost the config allows. */
export const ACCOUNT_TEST_ENV = { PASSWORD_HASH_MEMORY_KIB: '8192' };

const hasher = new PasswordHasher({ memoryKiB: 8192, concurrency: 8 });

export type TTestAccount = {
  id: string;
  email: string;
  name: string;
  password: string;
  role: 'admin' | 'staff' | 'developer';
};

let counter = 0;

/** An active account with a verified email, made directly in the database. */
export const createAccount = async (
  api: TTestApi,
  role: TTestAccount['role'],
  overrides: Partial<Pick<TTestAccount, 'email' | 'name' | 'password'>> = {},
): Promise<TTestAccount> => {
  counter += 1;
  const email = overrides.email ?? `${role}-${counter}-${Date.now()}@example.org`;
  const name = overrides.name ?? `${role[0]?.toUpperCase()}${role.slice(1)} Person ${counter}`;
  const password = overrides.password ?? `correct horse battery ${counter}`;
  const accounts = new AccountsRepository(api.pool);
  const organization =
    role === 'developer' ? await accounts.createOrganization(`${name}'s organisation`) : null;
  const account = await accounts.create({
    email,
    name,
    role,
    status: 'active',
    passwordHash: await hasher.hash(password),
    emailVerifiedAt: new Date(),
    organizationId: organization?.id ?? null,
    invitedById: null,
  });
  return { id: account.id, email, name, password, role };
};

/** The site: its first-party key, and the requests it makes for its visitors. */
export type TTestSite = {
  key: string;
  /** A site-only operation called as the site for a visitor not signed in (its key as bearer). */
  asVisitor: (path: string, body?: unknown, visitor?: string, method?: string) => Promise<Response>;
  /** An operation called for a signed-in person: their credential, the site's key beside it. */
  asPerson: (
    credential: string,
    path: string,
    init?: { method?: string; body?: unknown; visitor?: string },
  ) => Promise<Response>;
};

export const testSite = async (api: TTestApi): Promise<TTestSite> => {
  const key = await api.createKey({ name: 'Site', plan: 'business', firstParty: true });
  const send = (
    bearer: string,
    path: string,
    method: string,
    body: unknown,
    headers: Record<string, string>,
  ) =>
    api.fetch(path, {
      key: bearer,
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return {
    key,
    asVisitor: (
      path,
      body,
      visitor = '203.0.113.10',
      method = body === undefined ? 'GET' : 'POST',
    ) => send(key, path, method, body, { [FirstPartyHeader.visitorIp]: visitor }),
    asPerson: (credential, path, { method, body, visitor = '203.0.113.10' } = {}) =>
      send(credential, path, method ?? (body === undefined ? 'GET' : 'POST'), body, {
        [FirstPartyHeader.visitorIp]: visitor,
        [FirstPartyHeader.firstPartyKey]: key,
      }),
  };
};

export type TSignedIn = {
  credential: string;
  deviceToken: string;
  session: { id: string; expiresAt: string; idleSeconds: number };
  account: TSiteAccount;
};

/** Signs the account in through the site, as the site's sign-in form does. */
export const signInAs = async (
  site: TTestSite,
  account: Pick<TTestAccount, 'email' | 'password' | 'role'>,
  extra: { idleSeconds?: number; visitor?: string; deviceToken?: string; userAgent?: string } = {},
): Promise<TSignedIn> => {
  const response = await site.asVisitor(
    '/internal/auth/sign-in',
    {
      email: account.email,
      password: account.password,
      area: account.role === 'developer' ? 'developers' : 'staff',
      userAgent: extra.userAgent ?? 'Vitest',
      ...(extra.idleSeconds === undefined ? {} : { idleSeconds: extra.idleSeconds }),
      ...(extra.deviceToken === undefined ? {} : { deviceToken: extra.deviceToken }),
    },
    extra.visitor,
  );
  if (response.status !== 200) {
    throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  }
  return (await response.json()) as TSignedIn;
};

/** The link of an account email (the site's path and its token). */
export const linkIn = (text: string, purpose: 'verify' | 'reset' | 'invite'): string => {
  const match = new RegExp(`/(?:staff|developers)/${purpose}/([^\\s"<>\\]]+)`).exec(text);
  if (!match?.[1]) {
    throw new Error(`no ${purpose} link in:\n${text}`);
  }
  return match[1];
};
