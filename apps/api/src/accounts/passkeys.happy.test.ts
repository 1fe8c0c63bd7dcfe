import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, startTestApi, type TTestApi } from '../test/api-harness';
import { startSmtpServer, type TTestSmtpServer } from '../test/smtp-server';
import {
  ACCOUNT_TEST_ENV,
  createAccount,
  linkIn,
  signInAs,
  type TSignedIn,
  type TTestAccount,
  type TTestSite,
  testSite,
} from './accounts.test-support';
import { softAuthenticator, type TSoftAuthenticator } from './passkey-authenticator.test-support';

/**
 * Passkeys (issue 27, slice 5) over real HTTP against the real app and its database: a signed-in
 * person adds a passkey made by a software authenticator (a real P-256 key, a real `none`
 * attestation), then signs in with it; the server library checks every signature. Removed, the
 * passkey signs in no more. Challenges are single-use, bound to the site's origin and RP ID.
 */

const SITE = 'https://adopt.example';

let smtp: TTestSmtpServer;
let api: TTestApi;
let site: TTestSite;

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await startTestApi({
    env: {
      ...ACCOUNT_TEST_ENV,
      SITE_URL: SITE,
      SMTP_URL: smtp.url,
      SIGN_IN_ACCOUNT_LIMIT: '4/900,50/3600',
    },
  });
  site = await testSite(api);
}, 60_000);

afterAll(async () => {
  await api?.close();
  await smtp?.close();
});

/** A signed-in person, with the password they would type again to add a passkey. */
type TPerson = TSignedIn & { password: string };

const signIn = async (account: TTestAccount): Promise<TPerson> => ({
  ...(await signInAs(site, account)),
  password: account.password,
});

type TOptions = { challenge: string; rp?: { id?: string }; rpId?: string; user?: { id?: string } };

/** Options for a new passkey, asked for with the password again (or `confirmation`). */
const registrationOptions = async (
  person: TPerson,
  confirmation: Record<string, unknown> = { password: person.password },
): Promise<TOptions> => {
  const response = await site.asPerson(person.credential, '/internal/account/passkeys/options', {
    body: confirmation,
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { options: TOptions }).options;
};

const addPasskey = async (
  person: TPerson,
  authenticator: TSoftAuthenticator,
  name?: string,
  origin = SITE,
) => {
  const options = await registrationOptions(person);
  return site.asPerson(person.credential, '/internal/account/passkeys', {
    body: { response: authenticator.register(options, origin), ...(name ? { name } : {}) },
  });
};

const signInOptions = async (visitor?: string): Promise<TOptions> => {
  const response = await site.asVisitor(
    '/internal/auth/passkey/options',
    undefined,
    visitor,
    'POST',
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { options: TOptions }).options;
};

const passkeySignIn = (
  response: Record<string, unknown>,
  area: 'staff' | 'developers' = 'staff',
  visitor?: string,
) =>
  site.asVisitor(
    '/internal/auth/passkey',
    { response, area, userAgent: 'Vitest passkey' },
    visitor,
  );

const listPasskeys = async (person: TSignedIn) => {
  const response = await site.asPerson(person.credential, '/internal/account/passkeys');
  expect(response.status).toBe(200);
  return (
    (await response.json()) as {
      passkeys: { id: string; name: string; lastUsedAt: string | null }[];
    }
  ).passkeys;
};

describe('a staff member with a passkey', () => {
  let staff: TTestAccount;
  let person: TPerson;
  const authenticator = softAuthenticator();

  beforeAll(async () => {
    staff = await createAccount(api, 'staff');
    person = await signIn(staff);
  });

  it('adds it from the account page, and sees it listed', async () => {
    const options = await registrationOptions(person);
    // The site's relying party, and the account as the authenticator's user handle.
    expect(options.rp?.id).toBe('adopt.example');
    expect(Buffer.from(options.user?.id ?? '', 'base64url').toString()).toBe(staff.id);

    const added = await site.asPerson(person.credential, '/internal/account/passkeys', {
      body: { response: authenticator.register(options, SITE), name: 'Work laptop' },
    });
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({
      passkey: { name: 'Work laptop', lastUsedAt: null, backedUp: false },
    });
    expect(await listPasskeys(person)).toMatchObject([{ name: 'Work laptop', lastUsedAt: null }]);
  });

  it('signs in with it: a session like a password sign-in gives, its method passkey', async () => {
    const options = await signInOptions();
    // Discoverable credentials: no list of passkeys is given away to a visitor.
    expect(options).not.toHaveProperty('allowCredentials.0');
    const response = await passkeySignIn(authenticator.assert(options, SITE));
    expect(response.status).toBe(200);
    const signedIn = (await response.json()) as TSignedIn;
    expect(signedIn.credential).toMatch(/^pets_live_/);
    expect(signedIn.account).toMatchObject({ id: staff.id, role: 'staff' });
    expect(signedIn.deviceToken).toEqual(expect.any(String));

    const session = await site.asPerson(signedIn.credential, '/internal/session');
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({
      account: { id: staff.id },
      session: { method: 'passkey', userAgent: 'Vitest passkey', isCurrent: true },
    });
    // The back office's operations work with it, as with a password's session.
    expect((await site.asPerson(signedIn.credential, '/internal/plans/requests')).status).toBe(200);
    expect((await listPasskeys(person))[0]?.lastUsedAt).not.toBeNull();
  });

  it('cannot replay an answer: each challenge signs in once', async () => {
    const answer = authenticator.assert(await signInOptions(), SITE);
    expect((await passkeySignIn(answer)).status).toBe(200);
    const again = await passkeySignIn(answer);
    expect(again.status).toBe(401);
    expect(await errorBody(again)).toMatchObject({ code: 'unauthorized', status: 401 });
  });

  it('is refused from another origin, for another RP ID, or signed by another key', async () => {
    // A visitor of its own: these failures count on its budget.
    const visitor = '198.51.100.20';
    const elsewhere = await passkeySignIn(
      authenticator.assert(await signInOptions(visitor), 'https://phish.example'),
      'staff',
      visitor,
    );
    expect(elsewhere.status).toBe(401);
    const otherRp = await passkeySignIn(
      authenticator.assert(await signInOptions(visitor), SITE, { rpId: 'phish.example' }),
      'staff',
      visitor,
    );
    expect(otherRp.status).toBe(401);
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const forged = await passkeySignIn(
      authenticator.assert(await signInOptions(visitor), SITE, { signWith: privateKey }),
      'staff',
      visitor,
    );
    expect(forged.status).toBe(401);
    // A challenge the API never handed out.
    const invented = await passkeySignIn(
      authenticator.assert({ challenge: 'bm90LWEtY2hhbGxlbmdl' }, SITE),
      'staff',
      visitor,
    );
    expect(invented.status).toBe(401);
  });

  it('signs in at the back office only, as the password does', async () => {
    const response = await passkeySignIn(
      authenticator.assert(await signInOptions(), SITE),
      'developers',
    );
    expect(response.status).toBe(403);
    expect((await errorBody(response)).message).toContain('back office');
  });

  it('cannot add the same passkey twice, nor answer a challenge of another person', async () => {
    const twice = await site.asPerson(person.credential, '/internal/account/passkeys', {
      body: { response: authenticator.register(await registrationOptions(person), SITE) },
    });
    expect(twice.status).toBe(400);
    expect(await errorBody(twice)).toMatchObject({ code: 'invalid_request' });

    const other = await signIn(await createAccount(api, 'staff'));
    const othersOptions = await registrationOptions(other);
    const stolen = await site.asPerson(person.credential, '/internal/account/passkeys', {
      body: { response: softAuthenticator().register(othersOptions, SITE) },
    });
    expect(stolen.status).toBe(400);
    // Made for another origin (a phishing site relaying the options).
    const phished = await addPasskey(
      person,
      softAuthenticator(),
      undefined,
      'https://phish.example',
    );
    expect(phished.status).toBe(400);
  });

  it('renamed, is listed by its new name and still signs in; another person cannot rename it', async () => {
    const [passkey] = await listPasskeys(person);
    const renameUrl = `/internal/account/passkeys/${passkey?.id}/rename`;
    const stranger = await signIn(await createAccount(api, 'staff'));
    const notTheirs = await site.asPerson(stranger.credential, renameUrl, {
      body: { name: 'Mine now' },
    });
    expect(notTheirs.status).toBe(404);
    expect(await errorBody(notTheirs)).toMatchObject({ code: 'not_found', status: 404 });

    for (const name of ['', '   ', 'x'.repeat(101)]) {
      const refused = await site.asPerson(person.credential, renameUrl, { body: { name } });
      expect(refused.status, JSON.stringify(name)).toBe(400);
      expect((await errorBody(refused)).code).toBe('invalid_request');
    }

    const renamed = await site.asPerson(person.credential, renameUrl, {
      body: { name: '  Phone in the blue case  ' },
    });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({
      passkey: { id: passkey?.id, name: 'Phone in the blue case' },
    });
    expect((await listPasskeys(person)).map((each) => each.name)).toEqual([
      'Phone in the blue case',
    ]);
    const { rows } = await api.pool.query<{ details: { from: string; to: string } }>(
      "select details from audit_log where actor_account_id = $1 and action = 'passkey.renamed'",
      [staff.id],
    );
    expect(rows.map((row) => row.details)).toMatchObject([
      { from: 'Work laptop', to: 'Phone in the blue case' },
    ]);
    const signedIn = await passkeySignIn(authenticator.assert(await signInOptions(), SITE));
    expect(signedIn.status).toBe(200);
  });

  it('removed, no longer signs in; another person cannot remove it', async () => {
    const [passkey] = await listPasskeys(person);
    const stranger = await signIn(await createAccount(api, 'admin'));
    const notTheirs = await site.asPerson(
      stranger.credential,
      `/internal/account/passkeys/${passkey?.id}/delete`,
      { method: 'POST' },
    );
    expect(notTheirs.status).toBe(404);

    const removed = await site.asPerson(
      person.credential,
      `/internal/account/passkeys/${passkey?.id}/delete`,
      { method: 'POST' },
    );
    expect(removed.status).toBe(204);
    expect(await listPasskeys(person)).toEqual([]);
    const response = await passkeySignIn(authenticator.assert(await signInOptions(), SITE));
    expect(response.status).toBe(401);
    const again = await site.asPerson(
      person.credential,
      `/internal/account/passkeys/${passkey?.id}/delete`,
      { method: 'POST' },
    );
    expect(again.status).toBe(404);
  });
});

describe('passkey sign-ins', () => {
  it('a developer adds one and signs in at the portal with it; the audit log has both', async () => {
    const developer = await createAccount(api, 'developer');
    const person = await signIn(developer);
    const authenticator = softAuthenticator();
    const added = await addPasskey(person, authenticator);
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({ passkey: { name: 'Passkey 1' } });
    const response = await passkeySignIn(
      authenticator.assert(await signInOptions(), SITE),
      'developers',
    );
    expect(response.status).toBe(200);
    const { rows } = await api.pool.query<{ action: string; details: { method?: string } }>(
      "select action, details from audit_log where actor_account_id = $1 and action in ('passkey.added', 'session.started') order by id",
      [developer.id],
    );
    expect(rows.map((row) => [row.action, row.details.method ?? null])).toEqual([
      ['session.started', 'password'],
      ['passkey.added', null],
      ['session.started', 'passkey'],
    ]);
  });

  it('failing from one visitor are throttled for that visitor only (429, Retry-After)', async () => {
    const authenticator = softAuthenticator();
    const visitor = '198.51.100.77';
    for (let attempt = 0; attempt < 4; attempt += 1) {
      // An unknown passkey: it was never added.
      const response = await passkeySignIn(
        authenticator.assert(await signInOptions(visitor), SITE),
        'staff',
        visitor,
      );
      expect(response.status).toBe(401);
    }
    const limited = await passkeySignIn(
      authenticator.assert(await signInOptions(visitor), SITE),
      'staff',
      visitor,
    );
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(await errorBody(limited)).toMatchObject({ code: 'rate_limited', status: 429 });

    // Another visitor with a real passkey is not held back.
    const staff = await createAccount(api, 'staff');
    const person = await signIn(staff);
    const own = softAuthenticator();
    expect((await addPasskey(person, own)).status).toBe(201);
    expect((await passkeySignIn(own.assert(await signInOptions(), SITE))).status).toBe(200);
  });

  it('of a deactivated account are refused like its password', async () => {
    const staff = await createAccount(api, 'staff');
    const person = await signIn(staff);
    const authenticator = softAuthenticator();
    expect((await addPasskey(person, authenticator)).status).toBe(201);
    await api.pool.query("update accounts set status = 'deactivated' where id = $1", [staff.id]);
    const response = await passkeySignIn(authenticator.assert(await signInOptions(), SITE));
    expect(response.status).toBe(403);
    expect((await errorBody(response)).message).toContain('deactivated');
  });

  it('a malformed answer is a 400 with the spec’s error body', async () => {
    const response = await site.asVisitor('/internal/auth/passkey', {
      response: { id: 'not base64url!', type: 'public-key' },
      area: 'staff',
    });
    expect(response.status).toBe(400);
    expect(await errorBody(response)).toMatchObject({ code: 'invalid_request', status: 400 });
  });
});

/** The next message to `to` with a subject starting `subject`, after the first `before`. */
const mailTo = async (to: string, subject: string, before: number) => {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const message = smtp.received
      .slice(before)
      .find((each) => each.to.includes(to) && each.subject.startsWith(subject));
    if (message) {
      return message;
    }
    if (Date.now() > deadline) {
      throw new Error(`no "${subject}" email to ${to}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe('a passkey does not outlive the owner securing the account', () => {
  /** A visitor of these tests' own: the others' failed passkey sign-ins are not counted here. */
  const OWN = '198.51.100.99';

  it('is added only with the password again or another of the owner’s passkeys, and the owner is emailed', async () => {
    const staff = await createAccount(api, 'staff', { name: 'Paula Owner' });
    // A borrowed session: it knows the credential, not the password.
    const borrowed = await signIn(staff);
    const optionsPath = '/internal/account/passkeys/options';
    const bare = await site.asPerson(borrowed.credential, optionsPath, { method: 'POST' });
    expect(bare.status).toBe(400);
    const guessed = await site.asPerson(borrowed.credential, optionsPath, {
      body: { password: 'a guess at the password' },
    });
    expect(await errorBody(guessed)).toEqual({
      status: 403,
      code: 'forbidden',
      message: 'The current password is not right.',
    });
    expect(await listPasskeys(borrowed)).toEqual([]);

    // With the password: added, and the owner hears of it by email.
    const before = smtp.received.length;
    const laptop = softAuthenticator();
    const added = await addPasskey(borrowed, laptop, 'Front desk laptop');
    expect(added.status).toBe(201);
    const message = await mailTo(staff.email, 'A passkey was added', before);
    expect(message.text).toContain('HELLO PAULA OWNER');
    expect(message.text).toContain(
      'A passkey called “Front desk laptop” was added to your account',
    );
    expect(message.text).toContain(
      'from an unknown browser (203.0.113.10). It signs in without your password.',
    );
    expect(message.text).toContain(`${SITE}/staff/reset`);
    const queued = await api.pool.query(
      "select 1 from mail_messages where template = 'passkey-added' and recipient = $1",
      [staff.email],
    );
    expect(queued.rows).toHaveLength(1);

    // Or with a passkey the account has, answering a sign-in challenge.
    const phone = softAuthenticator();
    const confirmation = { passkey: laptop.assert(await signInOptions(), SITE) };
    const options = await registrationOptions(borrowed, confirmation);
    const second = await site.asPerson(borrowed.credential, '/internal/account/passkeys', {
      body: { response: phone.register(options, SITE), name: 'Phone' },
    });
    expect(second.status).toBe(201);
    await mailTo(staff.email, 'A passkey was added', before + 1);

    // Someone else's passkey confirms nothing here.
    const stranger = await signIn(await createAccount(api, 'staff'));
    const strangers = softAuthenticator();
    expect((await addPasskey(stranger, strangers)).status).toBe(201);
    const foreign = await site.asPerson(borrowed.credential, optionsPath, {
      body: { passkey: strangers.assert(await signInOptions(), SITE) },
    });
    expect(await errorBody(foreign)).toMatchObject({ status: 403, code: 'forbidden' });
    expect((await listPasskeys(borrowed)).map((each) => each.name)).toEqual([
      'Front desk laptop',
      'Phone',
    ]);
  });

  it('a session cannot be used to guess the password: wrong ones are throttled as at sign-in', async () => {
    const staff = await createAccount(api, 'staff');
    const borrowed = await signIn(staff);
    const visitor = '198.51.100.88';
    const attempt = (password: string) =>
      site.asPerson(borrowed.credential, '/internal/account/passkeys/options', {
        body: { password },
        visitor,
      });
    for (let index = 0; index < 4; index += 1) {
      expect((await attempt(`guess number ${index}`)).status).toBe(403);
    }
    const limited = await attempt(staff.password);
    expect(limited.status).toBe(429);
    expect(await errorBody(limited)).toMatchObject({ code: 'rate_limited' });
  });

  it('a reset ends every session and removes every passkey: it signs in no more', async () => {
    const staff = await createAccount(api, 'staff');
    const owner = await signIn(staff);
    const intruder = softAuthenticator();
    expect((await addPasskey(owner, intruder, 'MacBook')).status).toBe(201);
    expect(
      (await passkeySignIn(intruder.assert(await signInOptions(), SITE), 'staff', OWN)).status,
    ).toBe(200);

    const before = smtp.received.length;
    await site.asVisitor('/internal/auth/reset-request', { email: staff.email });
    const token = linkIn((await mailTo(staff.email, 'Reset your', before)).text, 'reset');
    const reset = await site.asVisitor('/internal/auth/reset', {
      token,
      password: 'the owner took it back',
    });
    expect(reset.status).toBe(200);

    expect((await site.asPerson(owner.credential, '/internal/session')).status).toBe(401);
    const refused = await passkeySignIn(intruder.assert(await signInOptions(), SITE), 'staff', OWN);
    expect(refused.status).toBe(401);
    const back = await signIn({ ...staff, password: 'the owner took it back' });
    expect(await listPasskeys(back)).toEqual([]);
    const { rows } = await api.pool.query<{ details: Record<string, number> }>(
      "select details from audit_log where target_id = $1 and action = 'account.password_reset'",
      [staff.id],
    );
    expect(rows.map((row) => row.details)).toEqual([{ sessionsEnded: 2, passkeysRemoved: 1 }]);
  });

  it('a password change ends the other sessions and removes every passkey', async () => {
    const staff = await createAccount(api, 'staff');
    const owner = await signIn(staff);
    const intruder = softAuthenticator();
    expect((await addPasskey(owner, intruder)).status).toBe(201);
    const intruderSession = await passkeySignIn(
      intruder.assert(await signInOptions(), SITE),
      'staff',
      OWN,
    );
    const { credential: intruderCredential } = (await intruderSession.json()) as TSignedIn;

    const changed = await site.asPerson(owner.credential, '/internal/account/password', {
      body: { currentPassword: staff.password, newPassword: 'a brand new passphrase' },
    });
    expect(changed.status).toBe(204);
    expect((await site.asPerson(owner.credential, '/internal/session')).status).toBe(200);
    expect((await site.asPerson(intruderCredential, '/internal/session')).status).toBe(401);
    expect(await listPasskeys(owner)).toEqual([]);
    expect(
      (await passkeySignIn(intruder.assert(await signInOptions(), SITE), 'staff', OWN)).status,
    ).toBe(401);
  });
});
