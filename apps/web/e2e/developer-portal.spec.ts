import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { expectNoSeriousViolations } from './axe';
import {
  createKeyIn,
  fillSignUp,
  newDeveloper,
  signedUpDeveloper,
  verifyLinkOf,
} from './developer-helpers';
import { expect, test } from './fixtures';
import type { TStack } from './harness/stack';
import { mailTo } from './mail-helpers';
import { signIn as staffSignIn } from './staff-helpers';

/**
 * The developer portal (issue 27, §4): a developer signs up, confirms the address through the
 * email's link (a button, not the link, confirms), creates a test key shown once, calls the API
 * with it, rolls it with an overlap (both secrets work) and revokes it (both refused within
 * seconds). Real API, real SMTP, Chromium.
 */

/** Calls the public API with a key: the status of GET /v1/pets. */
const statusWith = async (stack: TStack, key: string): Promise<number> =>
  (await fetch(`${stack.apiUrl}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } }))
    .status;

test.describe('Developer portal', () => {
  test('signs up, confirms by email, creates a key, calls the API, rolls and revokes it', async ({
    page,
    context,
    stack,
  }) => {
    test.setTimeout(120_000);
    // Signed out, the portal sends to its sign-in, and back afterwards.
    await page.goto(`${stack.siteUrl}/developers/keys`);
    await expect(page).toHaveURL(`${stack.siteUrl}/developers/sign-in?next=%2Fdevelopers%2Fkeys`);

    const developer = newDeveloper();
    await fillSignUp(page, stack.siteUrl, developer);
    await expect(page).toHaveURL(`${stack.siteUrl}/developers?welcome=1`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your email');
    await expect(page.getByText(developer.email)).toBeVisible();
    // The link can be sent again (earlier ones still work).
    await page.getByRole('button', { name: 'Send the link again' }).click();
    await expect(page).toHaveURL(`${stack.siteUrl}/developers?resent=1`);
    await expect(page.getByRole('status')).toContainText('A new link is on its way.');
    await expect
      .poll(
        () =>
          mailTo(stack, developer.email).filter((mail) => /Confirm your email/.test(mail.subject))
            .length,
        {
          timeout: 30_000,
        },
      )
      .toBe(2);
    // Nothing else opens before the address is confirmed.
    await page.goto(`${stack.siteUrl}/developers/keys/new`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your email');

    // Opening the link (as a mail scanner does) confirms nothing; the button does.
    const link = await verifyLinkOf(stack, developer.email);
    await page.goto(`${stack.siteUrl}${link}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm your email address');
    await page.goto(`${stack.siteUrl}/developers`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your email');
    await page.goto(`${stack.siteUrl}${link}`);
    await page.getByRole('button', { name: 'Confirm my email address' }).click();
    await expect(page).toHaveURL(`${stack.siteUrl}/developers?verified=1`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(developer.organization);
    await expect(page.getByRole('heading', { name: 'Plan: Free' })).toBeVisible();
    await expect(page.getByText('No active key yet.')).toBeVisible();

    // A test key, shown once.
    await page
      .getByRole('navigation', { name: 'Developers' })
      .getByRole('link', { name: 'Keys' })
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Keys');
    await page.getByRole('link', { name: 'Create a key' }).click();
    await page.getByLabel('Name').fill('Story app');
    await page.getByRole('button', { name: 'Create the key' }).click();
    await expect(page.getByText("You won't see this key again.")).toBeVisible();
    const key = ((await page.locator('#issued-key').textContent()) ?? '').trim();
    expect(key).toMatch(/^pets_test_/);
    // Never in a cookie.
    for (const cookie of await context.cookies()) {
      expect(cookie.value).not.toContain(key);
    }

    // 25 calls with it succeed.
    const statuses = await Promise.all(Array.from({ length: 25 }, () => statusWith(stack, key)));
    expect(statuses.every((status) => status === 200)).toBe(true);

    // They show on the usage page within a minute (the API counts in batches), in the table
    // under the chart: 25 successes today (UTC).
    const today = new Date().toISOString().slice(0, 10);
    await expect
      .poll(
        async () => {
          await page.goto(`${stack.siteUrl}/developers/usage`);
          await page.getByText('Show as a table').click();
          const cells = await page
            .getByRole('row', { name: new RegExp(`^${today}`) })
            .getByRole('cell')
            .allTextContents();
          return cells[0];
        },
        { timeout: 60_000, intervals: [2_000] },
      )
      .toBe('25');
    await expect(
      page.getByRole('application', { name: 'Requests per day, by outcome' }),
    ).toBeVisible();
    // And on the dashboard.
    await page.goto(`${stack.siteUrl}/developers`);
    await expect(page.getByRole('region', { name: 'Requests, last 30 days' })).toContainText(
      '25 requests, 0 of them refused for the rate limit',
    );

    await page.goto(`${stack.siteUrl}/developers/keys`);
    const row = page.getByRole('row', { name: /Story app/ });
    await expect(row).toContainText(key.slice(0, 14));
    await expect(row).toContainText('Test');
    await expect(row).toContainText('Active');
    // The key itself is never shown again.
    expect(await page.content()).not.toContain(key);

    // Rolled with an hour's overlap: both secrets work.
    await row.getByRole('link', { name: 'Roll Story app' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Roll “Story app”');
    await page.getByLabel(/keeps working for/).selectOption('1');
    await page.getByRole('button', { name: 'Roll the key' }).click();
    await expect(page.getByText("You won't see this key again.")).toBeVisible();
    const rolled = ((await page.locator('#issued-key').textContent()) ?? '').trim();
    expect(rolled).toMatch(/^pets_test_/);
    expect(rolled).not.toBe(key);
    expect(await statusWith(stack, rolled)).toBe(200);
    expect(await statusWith(stack, key)).toBe(200);
    await page.goto(`${stack.siteUrl}/developers/keys`);
    await expect(page.getByRole('row', { name: /Story app/ })).toContainText(
      'Rolled: old secret valid until',
    );

    // A roll page left open in another tab, 7 days chosen, while the key is revoked here...
    const stale = await context.newPage();
    await stale.goto(`${stack.siteUrl}/developers/keys`);
    await stale.getByRole('link', { name: 'Roll Story app' }).click();
    await stale.getByLabel(/keeps working for/).selectOption('168');

    // Revoked on its confirmation page: both secrets are refused within seconds.
    await page.getByRole('link', { name: 'Revoke Story app' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Revoke “Story app”?');
    await page.getByRole('button', { name: 'Revoke the key' }).click();
    await expect(page).toHaveURL(/\/developers\/keys\?revoked=Story\+app$/);
    await expect(page.getByRole('status')).toContainText('is revoked');
    await expect(page.getByRole('row', { name: /Story app/ })).toContainText('Revoked');
    await expect
      .poll(async () => [await statusWith(stack, rolled), await statusWith(stack, key)], {
        timeout: 10_000,
      })
      .toEqual([401, 401]);

    // ...then the roll is refused in words, and the overlap chosen stays.
    await stale.getByRole('button', { name: 'Roll the key' }).click();
    await expect(stale.locator('#roll-key-error')).toHaveText(
      'This key was revoked or has expired: create a new key instead.',
    );
    await expect(stale.getByLabel(/keeps working for/)).toHaveValue('168');
  });

  test('refusals in words, what was typed kept: a taken address, a wrong password, a reset, the other area', async ({
    page,
    browser,
    stack,
  }) => {
    test.setTimeout(90_000);
    const developer = await signedUpDeveloper(page, stack);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(`${stack.siteUrl}/developers/sign-in?signed-out=1`);

    // The same address again: said under the address and in the summary; nothing typed is lost,
    // the password neither (the browser keeps it: the page never gets it back).
    const again = { ...newDeveloper(), email: developer.email };
    const taken =
      'An account with this email address exists already: sign in, or reset its password.';
    await fillSignUp(page, stack.siteUrl, again);
    await expect(page.locator('#sign-up-email-error')).toHaveText(taken);
    await expect(page.locator('#sign-up-error')).toContainText(taken);
    await expect(page.getByLabel('Email')).toHaveValue(again.email);
    await expect(page.getByLabel('Password')).toHaveValue(again.password);
    await expect(page.getByLabel('Your name')).toHaveValue(again.name);
    await expect(page.getByLabel('Organisation')).toHaveValue(again.organization);
    // The API refuses a password that is the address: under the password, in words.
    const fresh = newDeveloper().email;
    await page.getByLabel('Email').fill(fresh);
    await page.getByLabel('Password').fill(fresh);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await expect(page.locator('#sign-up-password-error')).toHaveText(
      'Choose a password that is not your email address.',
    );
    await expect(page.getByLabel('Email')).toHaveValue(fresh);
    await expect(page.getByLabel('Organisation')).toHaveValue(again.organization);

    // A wrong password.
    await page.goto(`${stack.siteUrl}/developers/sign-in`);
    await page.getByLabel('Email').fill(developer.email);
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.locator('#sign-in-error')).toHaveText(
      'That email and password do not match.',
    );
    await expect(page.getByLabel('Email')).toHaveValue(developer.email);

    // A reset for an address the API refuses: said under the address, which stays.
    await page.goto(`${stack.siteUrl}/developers/reset`);
    await page.getByLabel('Email').fill('dana@.example.org');
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await expect(page.locator('#reset-email-error')).toHaveText(
      'Enter the email address you sign in with.',
    );
    await expect(page.getByLabel('Email')).toHaveValue('dana@.example.org');
    // A new password typed twice differently: said under the second; a used link in words.
    await page.goto(`${stack.siteUrl}/developers/reset/1.zzzz.AAAAAAAAAAAAAAAAAAAAAA`);
    await page.getByLabel('New password', { exact: true }).fill('a long new password');
    await page.getByLabel('New password again').fill('a long new passwort');
    await page.getByRole('button', { name: 'Set my password' }).click();
    await expect(page.locator('#repeat-password-error')).toHaveText(
      'The two passwords are not the same.',
    );
    await page.getByLabel('New password again').fill('a long new password');
    await page.getByRole('button', { name: 'Set my password' }).click();
    await expect(page.locator('#password-form-error')).toHaveText(
      'This link is not valid: it may have expired or been used already. Ask for a new one.',
    );

    // A developer's account does not open the back office...
    await page.goto(`${stack.siteUrl}/staff/sign-in`);
    await page.getByLabel('Email').fill(developer.email);
    await page.getByLabel('Password').fill(developer.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.locator('#sign-in-error')).toHaveText(
      'This is a developer account: sign in at the developer portal.',
    );

    // ...and a staff session does not open the portal.
    const staffContext = await browser.newContext();
    const staff = await staffContext.newPage();
    await staffSignIn(staff, stack.siteUrl, stack.staffAccount);
    await staff.goto(`${stack.siteUrl}/developers`);
    await expect(staff).toHaveURL(`${stack.siteUrl}/developers/sign-in?next=%2Fdevelopers`);
    await staffContext.close();

    // The developer signs in at the portal and lands on the dashboard.
    await page.goto(`${stack.siteUrl}/developers/sign-in`);
    await page.getByLabel('Email').fill(developer.email);
    await page.getByLabel('Password').fill(developer.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(`${stack.siteUrl}/developers`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(developer.organization);
    expect(await createKeyIn(page, stack.siteUrl, 'Live app', 'Live')).toMatch(/^pets_live_/);
  });
  test('works without JavaScript: sign up, confirm, a key shown once, revoked', async ({
    browser,
    stack,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signedUpDeveloper(page, stack);
    // Refused (no name): the reason under the field, what was chosen kept.
    await page.goto(`${stack.siteUrl}/developers/keys/new`);
    await page.getByLabel(/^Live:/).check();
    await page.getByLabel(/^Read-only:/).check();
    await page.getByRole('button', { name: 'Create the key' }).click();
    await expect(page.locator('#key-name-error')).toHaveText(
      'Give the key a name, such as “Shelter app”.',
    );
    await expect(page.getByLabel('Name')).toHaveAccessibleDescription(/Give the key a name/);
    await expect(page.getByLabel(/^Live:/)).toBeChecked();
    await expect(page.getByLabel(/^Read-only:/)).toBeChecked();
    await page.getByLabel('Name').fill('Plain app');
    await page.getByRole('button', { name: 'Create the key' }).click();
    await expect(page.getByText("You won't see this key again.")).toBeVisible();
    // No copy button without script; the key is there to select.
    await expect(page.getByRole('button', { name: 'Copy the key' })).toHaveCount(0);
    const key = ((await page.locator('#issued-key').textContent()) ?? '').trim();
    expect(key).toMatch(/^pets_live_/);
    expect(await statusWith(stack, key)).toBe(200);
    await page.goto(`${stack.siteUrl}/developers/keys`);
    await expect(page.getByRole('row', { name: /Plain app/ })).toContainText('Read-only');

    // A webhook endpoint whose address the API refuses: said in words, address and events kept.
    await createKeyIn(page, stack.siteUrl, 'Plain hooks');
    await page.goto(`${stack.siteUrl}/developers/webhooks/new`);
    await page.getByLabel('Address').fill('ftp://127.0.0.1/hooks');
    await page.getByLabel('pet.created').check();
    await page.getByRole('button', { name: 'Add the endpoint' }).click();
    await expect(page.locator('#endpoint-url-error')).toHaveText(
      'Use an address that starts with https:// (or http://).',
    );
    await expect(page.getByLabel('Address')).toHaveValue('ftp://127.0.0.1/hooks');
    await expect(page.getByLabel('pet.created')).toBeChecked();

    await page.goto(`${stack.siteUrl}/developers/keys`);
    await page.getByRole('link', { name: 'Revoke Plain app' }).click();
    await page.getByRole('button', { name: 'Revoke the key' }).click();
    await expect(page).toHaveURL(/\/developers\/keys\?revoked=Plain\+app$/);
    await expect.poll(() => statusWith(stack, key), { timeout: 10_000 }).toBe(401);
    await context.close();
  });

  test('"Try it in the API reference" opens the reference with a fresh test key that only reads', async ({
    page,
    browser,
    stack,
  }) => {
    test.setTimeout(120_000);
    const reference = `${stack.apiUrl.replace(/\/v1$/, '')}/docs`;
    await signedUpDeveloper(page, stack);
    await page.goto(`${stack.siteUrl}/developers/keys`);
    await page.getByRole('button', { name: 'Try it in the API reference' }).click();
    await page.waitForURL(`${reference}#try-key=*`);
    // The reference's own script takes the key out of the address as it starts.
    await expect.poll(() => page.url(), { timeout: 90_000 }).toBe(reference);
    await page.goto(`${stack.siteUrl}/developers/keys`);
    const row = page.getByRole('row', { name: /API reference/ });
    await expect(row).toContainText('Test');
    await expect(row).toContainText('Read-only');

    // Pressed again, it replaces its key instead of piling another one up.
    await page.getByRole('button', { name: 'Try it in the API reference' }).click();
    await page.waitForURL(`${reference}#try-key=*`);
    await page.goto(`${stack.siteUrl}/developers/keys`);
    const rows = page.getByRole('row', { name: /API reference/ });
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: 'Revoked' })).toHaveCount(1);

    // Without script the form still lands there, the key in the fragment: a test key that reads.
    const context = await browser.newContext({ javaScriptEnabled: false });
    const plain = await context.newPage();
    await signedUpDeveloper(plain, stack);
    await plain.goto(`${stack.siteUrl}/developers/keys`);
    await plain.getByRole('button', { name: 'Try it in the API reference' }).click();
    await plain.waitForURL(`${reference}#try-key=*`);
    const key = new URL(plain.url()).hash.replace('#try-key=', '');
    expect(key).toMatch(/^pets_test_/);
    expect(await statusWith(stack, key)).toBe(200);
    const write = await fetch(`${stack.apiUrl}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Nope', category: { id: 1 }, status: 'available' }),
    });
    expect(write.status).toBe(403);
    await context.close();
  });

  test('past 100 keys that still work, a new key and "Try it" are refused in words', async ({
    page,
    stack,
  }) => {
    test.setTimeout(120_000);
    const developer = await signedUpDeveloper(page, stack);
    // 100 test keys of the organisation, straight into the table: a hundred forms would take
    // minutes and show nothing the keys test does not.
    const client = new Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO api_keys (name, environment, plan, hash, start, kind, organization_id)
         SELECT 'Filler ' || n, 'staging', 'free', encode(sha256(convert_to(a.email || n, 'UTF8')), 'hex'),
                'pets_test_fill', 'key', a.organization_id
         FROM accounts a, generate_series(1, 100) AS n WHERE lower(a.email) = lower($1)`,
        [developer.email],
      );
    } finally {
      await client.end();
    }
    const refusal =
      'Your organisation has 100 keys that still work, the most it may have: revoke the ones you no longer use first.';
    await page.goto(`${stack.siteUrl}/developers/keys/new`);
    const expiry = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Name').fill('One too many');
    await page.getByLabel(/^Read-only:/).check();
    await page.getByLabel('Expires on (optional)').fill(expiry);
    await page.getByRole('button', { name: 'Create the key' }).click();
    await expect(page.getByRole('alert').filter({ hasText: refusal })).toBeVisible();
    // What was typed and ticked stays, to try again once a key is revoked.
    await expect(page.getByLabel('Name')).toHaveValue('One too many');
    await expect(page.getByLabel(/^Read-only:/)).toBeChecked();
    await expect(page.getByLabel('Expires on (optional)')).toHaveValue(expiry);
    await page.goto(`${stack.siteUrl}/developers/keys`);
    await page.getByRole('button', { name: 'Try it in the API reference' }).click();
    await expect(page).toHaveURL(/\/developers\/keys\?try-it=/);
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: `We couldn't open the API reference with a key: ${refusal}` }),
    ).toBeVisible();
  });

  test('adds a webhook endpoint, its secret shown once; a test event reaches a real receiver, signed', async ({
    page,
    stack,
  }) => {
    test.setTimeout(120_000);
    // A partner's receiver on the loopback: records what it gets, answers 200.
    const received: { headers: Record<string, string>; body: string }[] = [];
    const receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({
          headers: Object.fromEntries(
            Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
          ),
          body: Buffer.concat(chunks).toString('utf8'),
        });
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    try {
      await signedUpDeveloper(page, stack);
      await createKeyIn(page, stack.siteUrl, 'Test app');
      await page.goto(`${stack.siteUrl}/developers/keys/new`);
      await page.getByLabel('Name').fill('Partner site');
      await page.getByRole('button', { name: 'Create the key' }).click();
      await expect(page.getByText("You won't see this key again.")).toBeVisible();

      await page
        .getByRole('navigation', { name: 'Developers' })
        .getByRole('link', { name: 'Webhooks' })
        .click();
      await expect(page.getByText('No endpoints yet. Add one to receive events.')).toBeVisible();
      await page.getByRole('link', { name: 'Add an endpoint' }).click();
      // A refusal in words: no event chosen.
      const partnerKey = await page
        .getByRole('option', { name: /^Partner site/ })
        .getAttribute('value');
      await page.getByLabel('Key').selectOption(partnerKey ?? '');
      await page.getByLabel('Address').fill(receiverUrl);
      await page.getByRole('button', { name: 'Add the endpoint' }).click();
      const noEvent = 'Choose at least one kind of event, or every event.';
      await expect(page.getByRole('group', { name: 'Events' })).toContainText(noEvent);
      await expect(page.locator('#endpoint-error')).toContainText(noEvent);
      await expect(page.getByLabel('Address')).toHaveValue(receiverUrl);
      // An address the API refuses (its scheme): in words under the address and in the summary,
      // never the validator's "body.url: ..."; the key, address, events and note all kept.
      await page.getByLabel('Address').fill('ftp://127.0.0.1/hooks');
      await page.getByLabel('pet.created').check();
      await page.getByLabel('pet.status_changed').check();
      await page.getByLabel('Note (optional)').fill('Our adoption widget');
      await page.getByRole('button', { name: 'Add the endpoint' }).click();
      const badScheme = 'Use an address that starts with https:// (or http://).';
      await expect(page.locator('#endpoint-url-error')).toHaveText(badScheme);
      await expect(page.getByLabel('Address')).toHaveAccessibleDescription(
        /Use an address that starts with https:\/\//,
      );
      await expect(page.locator('#endpoint-error')).toContainText(badScheme);
      await expect(page.getByText(/body\.url|must be an/)).toHaveCount(0);
      await expect(page.getByLabel('Key')).toHaveValue(partnerKey ?? '');
      await expect(page.getByLabel('Address')).toHaveValue('ftp://127.0.0.1/hooks');
      await expect(page.getByLabel('pet.created')).toBeChecked();
      await expect(page.getByLabel('pet.status_changed')).toBeChecked();
      await expect(page.getByLabel('Every event')).not.toBeChecked();
      await expect(page.getByLabel('Note (optional)')).toHaveValue('Our adoption widget');
      await expectNoSeriousViolations(page, 'An endpoint refused');
      await page.getByLabel('Address').fill(receiverUrl);
      await page.getByRole('button', { name: 'Add the endpoint' }).click();
      await expect(page.getByText("You won't see this secret again.")).toBeVisible();
      const secret = ((await page.locator('#endpoint-secret').textContent()) ?? '').trim();
      expect(secret).toMatch(/^whsec_/);

      await page.getByRole('link', { name: 'Send it a test event' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Webhook endpoint');
      await expect(page.getByText('pet.created, pet.status_changed')).toBeVisible();
      await page.getByRole('button', { name: 'Send a test event' }).click();
      await expect(page.getByRole('status')).toContainText('A test event is on its way');
      await expect.poll(() => received.length, { timeout: 30_000 }).toBe(1);
      const [delivery] = received;
      const event = new Webhook(secret).verify(delivery?.body ?? '', delivery?.headers ?? {}) as {
        type: string;
      };
      expect(event.type).toBe('webhook.test');
      // The page lists the delivery once it is settled.
      await expect
        .poll(
          async () => {
            await page.reload();
            return page.getByRole('region', { name: 'Latest deliveries' }).textContent();
          },
          { timeout: 30_000 },
        )
        .toContain('Delivered');
      await expect(page.getByRole('region', { name: 'Latest deliveries' })).toContainText(
        'HTTP 200',
      );

      await page.goto(`${stack.siteUrl}/developers/webhooks`);
      const row = page.getByRole('row', { name: new RegExp(receiverUrl.replace(/[/.]/g, '\\$&')) });
      await expect(row).toContainText('Partner site');
      await expect(row).toContainText('Sending');
      // The secret is never on a page again.
      expect(await page.content()).not.toContain(secret);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
