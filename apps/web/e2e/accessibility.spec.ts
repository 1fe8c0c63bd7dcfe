import { expectNoSeriousViolations } from './axe';
import {
  addEndpointIn,
  createKeyIn,
  fillSignUp,
  newDeveloper,
  signedUpDeveloper,
} from './developer-helpers';
import { expect, test } from './fixtures';
import { apiPages, categories, NO_RATE_LIMITS, uniqueName } from './helpers';
import { addPhotoThroughApi, makePhoto } from './photo-helpers';
import { signIn } from './staff-helpers';

test.describe('Accessibility (axe-core, WCAG 2.2 AA)', () => {
  test('the Browse page, plain and filtered, desktop and phone', async ({ page, stack }) => {
    test.setTimeout(90_000); // seven pages and states, each analysed by axe
    await page.goto(stack.siteUrl);
    await expectNoSeriousViolations(page, 'Browse');
    await page.goto(`${stack.siteUrl}/?status=sold`);
    await expectNoSeriousViolations(page, 'Browse, adopted animals');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(stack.siteUrl);
    await expectNoSeriousViolations(page, 'Browse on a phone');
    await page.locator('.filters__toggle').click();
    await expect(page.getByLabel('Category')).toBeVisible();
    await expectNoSeriousViolations(page, 'Browse on a phone, filters open');
    await page.goto(`${stack.siteUrl}/?category=999999`);
    await expectNoSeriousViolations(page, 'Browse, empty');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${stack.siteUrl}/?status=all&sex=female&age=young&size=small&name=a`);
    await expectNoSeriousViolations(page, 'Browse, every filter and a search');
  });

  test('an animal with photos and a profile, on the public page and in the back office', async ({
    page,
    stack,
    api,
  }) => {
    test.setTimeout(90_000); // two uploads and five pages and states, each analysed by axe
    const [category] = await categories(api);
    const created = await api.pets.createPet({
      body: {
        name: uniqueName('Clementine'),
        categoryId: category?.id ?? 1,
        sex: 'female',
        age: 'adult',
        size: 'small',
        breed: 'Tabby',
        arrivedAt: '2026-01-15',
        description: 'Calm and affectionate.\n\nLikes a warm windowsill.',
      },
    });
    const petId = created.status === 201 ? created.body.id : 0;
    await addPhotoThroughApi(api, petId, await makePhoto());
    await addPhotoThroughApi(api, petId, await makePhoto({ format: 'png', background: '#9ec1d9' }));
    await page.goto(`${stack.siteUrl}/pets/${petId}`);
    await expectNoSeriousViolations(page, 'An animal with photos');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${stack.siteUrl}/pets/${petId}`);
    await expectNoSeriousViolations(page, 'An animal with photos on a phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await page.goto(`${stack.siteUrl}/staff/animals/${petId}`);
    await expectNoSeriousViolations(page, 'Edit an animal with photos');
    await page.getByLabel('Add a photo').setInputFiles({
      name: 'notes.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from('not a picture'),
    });
    await page.getByRole('button', { name: 'Upload photo' }).click();
    await expect(page.locator('#photo-file-error')).toBeVisible();
    await expectNoSeriousViolations(page, 'Edit an animal, a refused upload');
  });

  test("an animal's page", async ({ page, stack, api }) => {
    const [pets] = await apiPages(api, stack.apiUrl, { limit: 3 }, 1);
    for (const pet of pets ?? []) {
      await page.goto(`${stack.siteUrl}/pets/${pet.id}`);
      await expectNoSeriousViolations(page, `/pets/${pet.id}`);
    }
  });

  test('staff sign in: empty, refused, signed out', async ({ page, stack }) => {
    await page.goto(`${stack.siteUrl}/staff/sign-in`);
    await expectNoSeriousViolations(page, 'Staff sign in');
    // An address no account has: refused, and nobody's account counts a failure.
    await page.getByLabel('Email').fill(`nobody-${Date.now()}@store.test`);
    await page.getByLabel('Password').fill('not a password of anyone');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.locator('#sign-in-error')).toBeVisible();
    await expectNoSeriousViolations(page, 'Staff sign in, refused');
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page.getByRole('status')).toHaveText('You are signed out.');
    // After the sign-out's redirect the page's title arrives with its streamed metadata, a moment
    // after its content: a person sees it in the tab, and so must axe.
    await expect(page).toHaveTitle(/^Staff sign in · /);
    await expectNoSeriousViolations(page, 'Staff sign in, signed out');
  });

  test('the back office: queue, filtered, empty, an application, its confirmation, animals, forms', async ({
    page,
    stack,
    api,
  }) => {
    test.setTimeout(120_000); // a dozen pages and states, each analysed by axe
    const [pets] = await apiPages(api, stack.apiUrl, { status: 'available', limit: 1 }, 1);
    const pet = pets?.[0];
    expect(pet).toBeDefined();
    const placed = await api.orders.placeOrder({
      body: { petId: pet?.id ?? 0, adopter: { name: 'Alan Turing', email: 'alan@example.org' } },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    const orderId = placed.status === 201 ? placed.body.id : 0;
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await expectNoSeriousViolations(page, 'Applications');
    await page.goto(`${stack.siteUrl}/staff/applications?status=cancelled`);
    await expectNoSeriousViolations(page, 'Applications, filtered (maybe empty)');
    await page.goto(`${stack.siteUrl}/staff/applications/${orderId}`);
    await expectNoSeriousViolations(page, 'An application');
    await page.goto(`${stack.siteUrl}/staff/applications/${orderId}?confirm=approve`);
    await expectNoSeriousViolations(page, 'An application, confirming');
    await page.getByRole('button', { name: 'Yes, approve' }).click();
    await expect(page.getByRole('status')).toBeVisible();
    await expectNoSeriousViolations(page, 'An application, approved');
    await page.goto(`${stack.siteUrl}/staff/animals`);
    await expectNoSeriousViolations(page, 'Animals');
    await page.goto(`${stack.siteUrl}/staff/animals/${pet?.id}`);
    await expectNoSeriousViolations(page, 'Edit an animal');
    // Its open application keeps it pending: the 409, in words, under Status.
    await page.getByRole('radio', { name: 'Available' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.locator('#pet-status-available-error')).toBeVisible();
    await expectNoSeriousViolations(page, 'Edit an animal, refused');
    await page.goto(`${stack.siteUrl}/staff/animals/new`);
    await expectNoSeriousViolations(page, 'Add an animal');
    await page.getByRole('button', { name: 'Add animal' }).click();
    await expect(page.locator('#pet-name-error')).toBeVisible();
    await expectNoSeriousViolations(page, 'Add an animal, with errors');
    await page.goto(`${stack.siteUrl}/staff/account`);
    await expectNoSeriousViolations(page, 'Your account');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${stack.siteUrl}/staff/applications/${orderId}`);
    await expectNoSeriousViolations(page, 'An application on a phone');
    await page.goto(`${stack.siteUrl}/staff/account`);
    await expectNoSeriousViolations(page, 'Your account on a phone');
  });

  test("people's pages: reset, invite, team and audit, at desktop and phone width", async ({
    page,
    stack,
  }) => {
    test.setTimeout(120_000);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${stack.siteUrl}/staff/reset`);
      await expectNoSeriousViolations(page, `Reset your password (${width})`);
      await page.goto(`${stack.siteUrl}/staff/reset/1.zzzz.AAAAAAAAAAAAAAAAAAAAAA`);
      await expectNoSeriousViolations(page, `Choose a new password (${width})`);
      await page.goto(`${stack.siteUrl}/staff/invite/1.zzzz.AAAAAAAAAAAAAAAAAAAAAA`);
      await expectNoSeriousViolations(page, `Join the team (${width})`);
    }
    await signIn(page, stack.siteUrl, stack.adminAccount);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${stack.siteUrl}/staff/team`);
      await expectNoSeriousViolations(page, `Team (${width})`);
      await page.goto(`${stack.siteUrl}/staff/audit`);
      await expectNoSeriousViolations(page, `Audit log (${width})`);
      await page.goto(`${stack.siteUrl}/staff/plans`);
      await expectNoSeriousViolations(page, `Plan requests (${width})`);
    }
  });

  test('the developer portal: its doors, dashboard, keys, a key shown once, roll and revoke, at desktop and phone width', async ({
    page,
    browser,
    stack,
  }) => {
    test.setTimeout(180_000);
    const TOKEN = '1.zzzz.AAAAAAAAAAAAAAAAAAAAAA';
    const doors = [
      ['/developers/sign-up', 'Sign up'],
      ['/developers/sign-in', 'Developer sign in'],
      [`/developers/verify/${TOKEN}`, 'Confirm your email address'],
      ['/developers/reset', 'Developer reset'],
      [`/developers/reset/${TOKEN}`, 'Developer new password'],
    ] as const;
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [path, label] of doors) {
        await page.goto(`${stack.siteUrl}${path}`);
        await expectNoSeriousViolations(page, `${label} (${width})`);
      }
    }
    // An address not confirmed yet: "check your email".
    const unconfirmed = await browser.newContext();
    const waiting = await unconfirmed.newPage();
    await fillSignUp(waiting, stack.siteUrl, newDeveloper());
    await expect(waiting.getByRole('heading', { level: 1 })).toHaveText('Check your email');
    for (const width of [1280, 390]) {
      await waiting.setViewportSize({ width, height: 900 });
      await waiting.goto(`${stack.siteUrl}/developers`);
      await expectNoSeriousViolations(waiting, `Check your email (${width})`);
    }
    await unconfirmed.close();
    // Confirmed, with a key.
    await page.setViewportSize({ width: 1280, height: 900 });
    await signedUpDeveloper(page, stack);
    await createKeyIn(page, stack.siteUrl, 'Axe app');
    await expectNoSeriousViolations(page, 'A key shown once');
    await page.goto(`${stack.siteUrl}/developers/keys`);
    const rollHref = await page.getByRole('link', { name: 'Roll Axe app' }).getAttribute('href');
    const revokeHref = await page
      .getByRole('link', { name: 'Revoke Axe app' })
      .getAttribute('href');
    const endpointHref = await addEndpointIn(page, stack.siteUrl);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [path, label] of [
        ['/developers', 'Developer dashboard'],
        ['/developers/keys', 'Keys'],
        ['/developers/keys/new', 'Create a key'],
        [rollHref, 'Roll a key'],
        [revokeHref, 'Revoke a key'],
        ['/developers/usage', 'Usage'],
        ['/developers/webhooks', 'Webhooks'],
        ['/developers/webhooks/new', 'Add a webhook endpoint'],
        [endpointHref, 'Webhook endpoint'],
        ['/developers/plan', 'Plan'],
        ['/developers/account', 'Developer account'],
      ] as const) {
        await page.goto(`${stack.siteUrl}${path}`);
        await expectNoSeriousViolations(page, `${label} (${width})`);
      }
      await page.goto(`${stack.siteUrl}/developers/usage`);
      await page.getByText('Show as a table').click();
      await expectNoSeriousViolations(page, `Usage as a table (${width})`);
    }
  });

  test('the not-found, rate-limited and unreachable states', async ({ page, stack }) => {
    await page.goto(`${stack.siteUrl}/pets/987654321`);
    await expectNoSeriousViolations(page, 'not found');
    if (stack.hasRateLimits) {
      await page.goto(stack.limitedSiteUrl);
      await expect(page.getByText(/We're getting a lot of visits/)).toBeVisible();
      await expectNoSeriousViolations(page, 'rate limited');
    } else {
      test.info().annotations.push({ type: 'skipped in part', description: NO_RATE_LIMITS });
    }
    await page.goto(stack.offlineSiteUrl);
    await expectNoSeriousViolations(page, 'unreachable');
  });

  test('every control shows a visible focus ring', async ({ page, stack }) => {
    await page.goto(stack.siteUrl);
    const outlines: string[] = [];
    for (let step = 0; step < 12; step += 1) {
      await page.keyboard.press('Tab');
      outlines.push(
        await page.evaluate(() => {
          const active = document.activeElement as HTMLElement | null;
          if (!active || active === document.body) {
            return 'body';
          }
          const own = getComputedStyle(active);
          // Radios and card links draw their ring on their label / card.
          const ringed = active.closest('.segmented__option, .card') as HTMLElement | null;
          const style = own.outlineStyle !== 'none' ? own : getComputedStyle(ringed ?? active);
          return `${active.tagName} ${style.outlineStyle} ${style.outlineWidth}`;
        }),
      );
    }
    for (const outline of outlines.filter((value) => value !== 'body')) {
      expect(outline).toMatch(/ solid 3px$/);
    }
  });
});
