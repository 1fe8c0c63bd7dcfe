import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sealData } from 'iron-session';
import { newAvailablePet } from './adopt-helpers';
import { expect, type TApiClient, test } from './fixtures';
import { GUARDED_SESSION_IDLE_SECONDS, type TStack } from './harness/stack';
import {
  formsOf,
  newVisitorAddress,
  ScriptedVisitor,
  type TAnswer,
  type TForm,
} from './scripted-visitor';
import { SESSION_COOKIE } from './staff-helpers';

/**
 * The attacks on the site's visitors, each scripted as an attacker would (plain HTTP, forms posted with their
 * hidden fields, one address per visitor), against the site with its default per-visitor limits.
 * During and after each, another visitor still browses the catalogue and a staff member still
 * signs in: one visitor can never spend what all visitors share.
 */

/**
 * A guess: an address no account has and a random password. Never a real person's address: the
 * API throttles each account's failures, and the other tests' staff member must still sign in.
 */
const randomGuess = () => ({
  email: `guess-${randomBytes(6).toString('hex')}@store.test`,
  password: randomBytes(12).toString('base64url'),
});

const isRefusedByApi = (answer: TAnswer) =>
  answer.body.includes('That email and password do not match.');

/** An animal the site shows, as the API has it. */
const someAnimal = async (api: TApiClient) => {
  const response = await api.pets.listPets({ query: { limit: 1 } });
  expect(response.status).toBe(200);
  const [pet] = response.status === 200 ? response.body : [];
  if (!pet) {
    throw new Error('the seeded store has no animal');
  }
  return pet;
};

const isTooMany = (answer: TAnswer) =>
  answer.body.includes('Too many sign-ins were refused from here');

/** Signs in from a visitor of its own with an email and password; the sign-in form's answer. */
const signInFrom = async (
  siteUrl: string,
  account: { email: string; password: string },
  address = newVisitorAddress(),
  headers: Record<string, string> = {},
) => {
  const visitor = new ScriptedVisitor(siteUrl, address, headers);
  const form = await visitor.form('/staff/sign-in', 'email');
  return {
    visitor,
    answer: await visitor.submit(form, { email: account.email, password: account.password }),
  };
};

/** What another visitor notices: the home page and an animal's page with animals, staff sign-in. */
const expectSiteUpForOthers = async (stack: TStack, api: TApiClient) => {
  const pet = await someAnimal(api);
  const visitor = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress());
  const home = await visitor.request('/');
  expect(home.status, 'the home page, for another visitor').toBe(200);
  expect(home.body).toContain('href="/pets/');
  expect(home.body).not.toContain('a lot of visits');
  const page = await visitor.request(`/pets/${pet.id}`);
  expect(page.status, "an animal's page, for another visitor").toBe(200);
  expect(page.body).toContain(pet.name);
  const { answer } = await signInFrom(stack.guardedSiteUrl, stack.staffAccount);
  expect(answer.status, 'the staff member signs in from another visitor').toBe(303);
  expect(answer.location).toBe('/staff/applications');
};

/** Lines of the API's access log for calls made with the site's key, now. */
const siteKeyCalls = (stack: TStack): number => {
  const start = stack.webApiKey.slice(0, stack.webApiKey.indexOf('_', 5) + 5);
  return readFileSync(stack.apiLogFile, 'utf8')
    .split('\n')
    .filter((line) => line.includes(`"apiKey":"${start}"`) && line.includes('"msg":"request"'))
    .length;
};

/** The API writes its access lines in buffers of a few KB: these requests push them out. */
const flushApiLog = async (stack: TStack) => {
  for (let index = 0; index < 40; index += 1) {
    const response = await fetch(`${stack.apiUrl}/categories`, {
      headers: { authorization: `Bearer ${stack.partnerApiKey}` },
    });
    await response.body?.cancel();
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
};

test.describe('Attacks on the public site', () => {
  test('100 simultaneous wrong passwords at sign-in: five reach the API, nobody else notices', async ({
    stack,
    api,
  }) => {
    const attacker = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress());
    const form = await attacker.form('/staff/sign-in', 'email');
    const attack = Promise.all(
      Array.from({ length: 100 }, () => attacker.submit(form, randomGuess())),
    );
    await expectSiteUpForOthers(stack, api);
    const answers = await attack;
    expect(answers.every((answer) => answer.status === 200 || answer.status === 429)).toBe(true);
    expect(answers.filter(isRefusedByApi).length).toBeLessThanOrEqual(5);
    expect(answers.filter(isTooMany).length).toBeGreaterThan(0);
    await expectSiteUpForOthers(stack, api);
  });

  test('wrong passwords from many visitors never count against the site at the API', async ({
    stack,
    api,
  }) => {
    // Thirteen visitors, five wrong passwords each: 65 refusals, more than the API's budget of 60
    // failed authentications per address. Were they counted against the site's address, the API
    // would now refuse the site's own key and every public page would be down.
    const answers = await Promise.all(
      Array.from({ length: 13 }, async () => {
        const address = newVisitorAddress();
        const mine: TAnswer[] = [];
        for (let attempt = 0; attempt < 5; attempt += 1) {
          mine.push((await signInFrom(stack.guardedSiteUrl, randomGuess(), address)).answer);
        }
        return mine;
      }),
    );
    // Each is refused in words: "do not match", or, while the API's password hashing is at its
    // cap (PASSWORD_HASH_CONCURRENCY, a 503 with Retry-After: 1), "try again in a minute".
    const all = answers.flat();
    expect(all.filter(isRefusedByApi).length).toBeGreaterThan(0);
    expect(
      all.every(
        (answer) => isRefusedByApi(answer) || answer.body.includes("We can't reach our records"),
      ),
    ).toBe(true);
    await expectSiteUpForOthers(stack, api);
  });

  test('an old session cookie replayed hammers nothing and takes nothing down', async ({
    stack,
    api,
  }) => {
    // A cookie sealed with the site's own secret, holding a credential the API no longer accepts.
    const cookie = await sealData(
      {
        credential: stack.revokedStaffApiKey,
        role: 'staff',
        name: 'Former staff',
        sessionId: '1',
        accountId: '1',
      },
      { password: stack.sessionSecret, ttl: 3600 },
    );
    const replayer = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress());
    replayer.cookies.set(SESSION_COOKIE, cookie);
    for (let round = 0; round < 4; round += 1) {
      const answers = await Promise.all(
        Array.from({ length: 25 }, () => replayer.request('/staff/applications')),
      );
      for (const answer of answers) {
        expect([307, 429]).toContain(answer.status);
        if (answer.status === 307) {
          expect(answer.location).toMatch(/^\/staff\/sign-in/);
        }
      }
    }
    await expectSiteUpForOthers(stack, api);
  });

  test('a thousand status lookups from one visitor: ten reach the API, the catalogue stays up', async ({
    stack,
    api,
  }) => {
    const attacker = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress());
    const form = await attacker.form('/applications/status', 'email');
    const answers: TAnswer[] = [];
    const during = expectSiteUpForOthers(stack, api);
    for (let batch = 0; batch < 53; batch += 1) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 20 }, (_, index) =>
            attacker.submit(form, {
              reference: `A-${batch + 1}`,
              email: `guess-${batch}-${index}@example.org`,
            }),
          ),
        )),
      );
    }
    await during;
    expect(answers).toHaveLength(1_060);
    const looked = answers.filter((answer) =>
      answer.body.includes("We couldn't find an application"),
    );
    expect(looked.length).toBeLessThanOrEqual(10);
    expect(
      answers.every(
        (answer) =>
          answer.status === 429 ||
          answer.body.includes("We couldn't find an application") ||
          answer.body.includes('You have looked up applications many times'),
      ),
    ).toBe(true);
    await expectSiteUpForOthers(stack, api);
  });

  test('"email me my links" from one visitor: five an hour reach the API, others still ask', async ({
    stack,
    api,
  }) => {
    const linksForm = async (visitor: ScriptedVisitor): Promise<TForm> => {
      const page = await visitor.request('/applications/status');
      const form = formsOf(page.body, '/applications/status').find(
        (each) =>
          each.fields.some(([name]) => name === 'email') &&
          !each.fields.some(([name]) => name === 'reference'),
      );
      if (!form) {
        throw new Error('no "email me my links" form on /applications/status');
      }
      return form;
    };
    const isSent = (answer: TAnswer) => answer.body.includes('If we have applications from');
    const attacker = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress());
    const form = await linksForm(attacker);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        attacker.submit(form, { email: `someone-${index}@example.org` }),
      ),
    );
    expect(answers.filter(isSent)).toHaveLength(5);
    expect(
      answers.every(
        (answer) =>
          answer.status === 429 ||
          isSent(answer) ||
          answer.body.includes('You have asked for links several times'),
      ),
    ).toBe(true);
    // Another visitor asks for theirs, and the catalogue is up.
    const other = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress());
    expect(isSent(await other.submit(await linksForm(other), { email: 'other@example.org' }))).toBe(
      true,
    );
    await expectSiteUpForOthers(stack, api);
  });

  test('developer sign-ups from one visitor: five an hour, another visitor still signs up', async ({
    stack,
    api,
  }) => {
    // The form is read once: a visitor signed up is signed in, and the page sends them on.
    const signUp = async (visitor: ScriptedVisitor, email: string, form?: TForm) =>
      visitor.submit(form ?? (await visitor.form('/developers/sign-up', 'organizationName')), {
        email,
        password: randomBytes(12).toString('base64url'),
        name: 'Flood',
        organizationName: 'Flood Ltd',
      });
    const tag = randomBytes(4).toString('hex');
    const isSignedUp = (answer: TAnswer) =>
      answer.status === 303 && answer.location === '/developers?welcome=1';
    const attacker = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress());
    // One after the other: at once, the API's cap on concurrent password hashing answers some
    // "busy" (503), which gives the visitor's point back, and the count would be the API's.
    const form = await attacker.form('/developers/sign-up', 'organizationName');
    const answers: TAnswer[] = [];
    for (let index = 0; index < 8; index += 1) {
      answers.push(await signUp(attacker, `flood-${tag}-${index}@example.org`, form));
    }
    expect(answers.filter(isSignedUp)).toHaveLength(5);
    expect(
      answers.every(
        (answer) =>
          answer.status === 429 ||
          isSignedUp(answer) ||
          answer.body.includes('Several accounts were signed up from here already'),
      ),
    ).toBe(true);
    // Another visitor signs up, and the catalogue is up.
    const other = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress());
    expect(isSignedUp(await signUp(other, `other-${tag}@example.org`))).toBe(true);
    await expectSiteUpForOthers(stack, api);
  });

  test('a household applies for several animals in a row; past the bounds, one visitor and one address are refused in words, and others still apply', async ({
    stack,
    api,
  }) => {
    test.setTimeout(120_000); // sixteen applications, each a page and a post
    const pets = await Promise.all(
      Array.from({ length: 11 }, (_, index) => newAvailablePet(api, `Hold ${index}`)),
    );
    const tag = randomBytes(4).toString('hex');
    const household = `family-${tag}@example.org`;
    const apply = async (visitor: ScriptedVisitor, petId: number, email: string) => {
      const form = await visitor.form(`/pets/${petId}/apply`, 'token');
      return visitor.submit(form, { name: 'Ada Lovelace', email, message: 'A quiet home.' });
    };
    const isPlaced = (answer: TAnswer) =>
      answer.status === 303 && answer.location === '/applications/sent';

    // One household, one address: six animals in a row, each application placed.
    const family = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress());
    const answers: TAnswer[] = [];
    for (const pet of pets.slice(0, 6)) {
      answers.push(await apply(family, pet.id, household));
    }
    expect(answers.map(isPlaced)).toEqual([true, true, true, true, true, true]);
    // The same address goes on with other emails: ten in the hour pass, the eleventh is refused
    // in words, with what was typed kept, and costs the API nothing.
    for (const [index, pet] of pets.slice(0, 4).entries()) {
      expect(isPlaced(await apply(family, pet.id, `other-${index}-${tag}@example.org`))).toBe(true);
    }
    const refused = await apply(family, pets[4]?.id ?? 0, `flood-${tag}@example.org`);
    expect(refused.status).toBe(200);
    expect(refused.body).toContain('You have sent several applications in a short while.');
    expect(refused.body).toContain(`flood-${tag}@example.org`);

    // The household's email from other visitors: ten applications a day in all, then refused.
    const elsewhere = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress());
    for (const pet of pets.slice(6, 10)) {
      expect(isPlaced(await apply(elsewhere, pet.id, household))).toBe(true);
    }
    const overAddress = await apply(elsewhere, pets[10]?.id ?? 0, household);
    expect(overAddress.status).toBe(200);
    expect(overAddress.body).toContain(
      'This email address has been used for many applications today.',
    );
    // That visitor still applies with another address: the refusal was the address's alone.
    expect(
      isPlaced(await apply(elsewhere, pets[10]?.id ?? 0, `neighbour-${tag}@example.org`)),
    ).toBe(true);

    // What was placed is what the API has: the refused posts never reached it.
    const after = await api.pets.listPets({ query: { id: pets.map((pet) => pet.id).join(',') } });
    expect(after.status).toBe(200);
    const inReview =
      after.status === 200
        ? Object.fromEntries(after.body.map((pet) => [pet.id, pet.applicationsInReview]))
        : {};
    expect(pets.map((pet) => inReview[pet.id])).toEqual([2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1]);
    await expectSiteUpForOthers(stack, api);
  });

  test('X-Forwarded-For is believed only from the trusted proxy: no lock-out of the back office', async ({
    stack,
    api,
  }) => {
    // Thirty wrong keys from a peer nobody trusts, each claiming another address: one visitor.
    const address = newVisitorAddress();
    const answers: TAnswer[] = [];
    for (let index = 0; index < 30; index += 1) {
      const { answer } = await signInFrom(stack.guardedSiteUrl, randomGuess(), address, {
        'x-forwarded-for': `198.51.100.${index + 1}`,
      });
      answers.push(answer);
    }
    expect(answers.filter(isRefusedByApi).length).toBeLessThanOrEqual(5);
    expect(answers.slice(5).every((answer) => answer.status === 429 || isTooMany(answer))).toBe(
      true,
    );
    await expectSiteUpForOthers(stack, api);

    // Through the trusted proxy (127.0.0.9), the address it names is the visitor.
    const throughProxy = (visitor: string, account: { email: string; password: string }) =>
      signInFrom(stack.guardedSiteUrl, account, stack.trustedProxyAddress, {
        'x-forwarded-for': visitor,
      });
    const proxied: TAnswer[] = [];
    for (let index = 0; index < 6; index += 1) {
      proxied.push((await throughProxy('203.0.113.10', randomGuess())).answer);
    }
    expect(proxied.slice(0, 5).every(isRefusedByApi)).toBe(true);
    expect(isTooMany(proxied[5] as TAnswer)).toBe(true);
    const neighbour = (await throughProxy('203.0.113.11', randomGuess())).answer;
    expect(isRefusedByApi(neighbour), 'another visitor behind the same proxy').toBe(true);
    const staff = (await throughProxy('203.0.113.12', stack.staffAccount)).answer;
    expect(staff.status).toBe(303);
  });

  test('a forged confirmation address thanks nobody', async ({ stack }) => {
    const visitor = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress());
    const answer = await visitor.request('/applications/sent?reference=A-999&pet=1');
    expect(answer.status).toBe(307);
    expect(answer.location).toBe('/applications/status');
    expect(answer.body).not.toContain('Thank you');
  });

  test('a form posted from another site is a calm 403; forms without Origin are noted once a minute', async ({
    stack,
  }) => {
    const visitor = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress());
    const form = await visitor.form('/applications/status', 'email');
    const foreign = await visitor.submit(
      form,
      { reference: 'A-1', email: 'a@example.org' },
      'https://attacker.example',
    );
    expect(foreign.status).toBe(403);
    expect(foreign.body).toContain('This form came from another site');

    const notes = () =>
      readFileSync(stack.guardedSiteLogFile, 'utf8')
        .split('\n')
        .filter((line) => /origin/i.test(line));
    const before = notes().length;
    for (let index = 0; index < 8; index += 1) {
      const answer = await new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress()).submit(
        form,
        { reference: 'A-1', email: `someone-${index}@example.org` },
        null,
      );
      expect(answer.status).toBe(200);
    }
    const added = notes().slice(before);
    // Noted at most once a minute, and Next.js's own warning (one line per post) never.
    expect(added.length).toBeLessThanOrEqual(1);
    expect(notes().some((line) => line.includes('without an Origin header'))).toBe(true);
    expect(added.join('\n')).not.toContain('Missing `origin` header');
  });

  test('a path spelled through /_next/ or with encoded dots is judged as the page it names', async ({
    stack,
    api,
  }) => {
    // What Next.js serves for each: the page /how-adoption-works (WHATWG URL's normal form).
    const spellings = [
      '/how-adoption-works',
      '/_next/../how-adoption-works',
      '/_next/%2e%2e/how-adoption-works',
      '/_next/%2E%2E/how-adoption-works',
      '/_next/.%2E/how-adoption-works',
      '/_next/static/%2e%2e/%2E./how-adoption-works',
    ];
    for (const path of spellings) {
      const attacker = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress());
      const answers = await Promise.all(
        Array.from({ length: 70 }, () =>
          attacker.submit(
            { path, fields: [['note', 'from elsewhere']] },
            {},
            'https://attacker.example',
          ),
        ),
      );
      const statuses = [...new Set(answers.map((answer) => answer.status))];
      expect(statuses, `70 cross-site posts to ${path}`).toEqual([403]);
      expect(
        answers.every((answer) => answer.body.includes('This form came from another site')),
      ).toBe(true);
    }

    // From the site itself, a spelled form post never reaches a page: a 400 in words, counted on
    // the visitor's form limit like any post, so the limit holds whatever the spelling.
    const visitor = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress());
    const form = await visitor.form('/applications/status', 'email');
    const answers: TAnswer[] = [];
    for (let batch = 0; batch < 7; batch += 1) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, (_, index) =>
            visitor.submit(
              {
                ...form,
                path:
                  index % 2 === 0
                    ? '/_next/../applications/status'
                    : '/_next/%2e%2e/applications/status',
              },
              { reference: 'A-1', email: `spelled-${batch}-${index}@example.org` },
            ),
          ),
        )),
      );
    }
    const refused = answers.filter((answer) => answer.status === 400);
    const limited = answers.filter((answer) => answer.status === 429);
    expect(refused.length + limited.length).toBe(70);
    expect(refused.length, 'the visitor form limit (60 a minute)').toBe(60);
    expect(refused[0]?.body).toContain('We cannot open this address');
    expect((await visitor.submit(form, { reference: 'A-1', email: 'a@example.org' })).status).toBe(
      429,
    );
    await expectSiteUpForOthers(stack, api);
  });

  test('headers: a CSP with a nonce, no HSTS over plain HTTP, and no Secure cookie from a header', async ({
    stack,
  }) => {
    const visitor = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress(), {
      'x-forwarded-proto': 'https',
    });
    const home = await visitor.request('/', { method: 'HEAD' });
    expect(home.status).toBe(200);
    expect(String(home.headers['content-security-policy'])).toMatch(/'nonce-[^']+'/);
    expect(home.headers['strict-transport-security']).toBeUndefined();
    const { answer } = await signInFrom(
      stack.guardedSiteUrl,
      stack.staffAccount,
      newVisitorAddress(),
      { 'x-forwarded-proto': 'https' },
    );
    const cookie = ([] as string[])
      .concat(answer.headers['set-cookie'] ?? [])
      .find((line) => line.startsWith(`${SESSION_COOKIE}=`));
    expect(cookie).toBeDefined();
    expect(cookie).not.toMatch(/;\s*secure/i);
  });

  test('a thousand anonymous page views cost the API a handful of calls', async ({
    stack,
    api,
  }) => {
    const pet = await someAnimal(api);
    // Once, so the pages' reads are in the cache; then count.
    const warm = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress());
    expect((await warm.request('/')).status).toBe(200);
    expect((await warm.request(`/pets/${pet.id}`)).status).toBe(200);
    await flushApiLog(stack);
    const before = siteKeyCalls(stack);
    const visitors = Array.from(
      { length: 20 },
      () => new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress()),
    );
    let views = 0;
    for (let round = 0; round < 50; round += 1) {
      const answers = await Promise.all(
        visitors.map((visitor) => visitor.request(round % 2 === 0 ? '/' : `/pets/${pet.id}`)),
      );
      views += answers.length;
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
    }
    await flushApiLog(stack);
    const calls = siteKeyCalls(stack) - before;
    test.info().annotations.push({
      type: 'measured',
      description: `${views} page views cost ${calls} API calls with the site's key`,
    });
    expect(views).toBe(1_000);
    // Home (animals, categories) and the animal's page (the animal, categories): each read is
    // refreshed at most once per 30 s while the views go on.
    expect(calls).toBeLessThanOrEqual(12);
  });
});

test.describe('Staff sessions that end', () => {
  test('a cookie copied before sign-out is a sign-in page afterwards, and changes nothing', async ({
    stack,
  }) => {
    const { visitor, answer } = await signInFrom(stack.guardedSiteUrl, stack.staffAccount);
    expect(answer.status).toBe(303);
    const copied = visitor.cookies.get(SESSION_COOKIE);
    expect(copied).toBeDefined();
    expect((await visitor.request('/staff/applications')).status).toBe(200);

    const band = await visitor.request('/staff/applications');
    // The band's first form, before the page's own: "Sign out".
    const signOut = formsOf(band.body, '/staff/applications').find((form) =>
      form.fields.some(([name]) => name.startsWith('$ACTION_ID_')),
    );
    expect(signOut).toBeDefined();
    const out = await visitor.submit(signOut as TForm);
    expect(out.status).toBe(303);
    expect(out.location).toMatch(/^\/staff\/sign-in\?signed-out/);

    const replayer = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress());
    replayer.cookies.set(SESSION_COOKIE, copied as string);
    const replayed = await replayer.request('/staff/applications/1');
    expect(replayed.status).toBe(307);
    expect(replayed.location).toMatch(/^\/staff\/sign-in/);
  });

  test('a session left unused past its idle time has ended', async ({ stack }) => {
    test.setTimeout(90_000); // about 35 s of waiting
    const { visitor, answer } = await signInFrom(stack.guardedSiteUrl, stack.staffAccount);
    expect(answer.status).toBe(303);
    // In use, each page starts the idle time again.
    for (let step = 0; step < 3; step += 1) {
      await new Promise((resolve) =>
        setTimeout(resolve, (GUARDED_SESSION_IDLE_SECONDS / 2) * 1000),
      );
      expect((await visitor.request('/staff/animals')).status).toBe(200);
    }
    await new Promise((resolve) => setTimeout(resolve, (GUARDED_SESSION_IDLE_SECONDS + 1) * 1000));
    const idle = await visitor.request('/staff/animals');
    expect(idle.status).toBe(307);
    expect(idle.location).toMatch(/^\/staff\/sign-in/);
  });
});
