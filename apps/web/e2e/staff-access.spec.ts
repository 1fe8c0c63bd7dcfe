import type { Page } from '@playwright/test';
import { sealData } from 'iron-session';
import { expect, type TApiClient, test } from './fixtures';
import { categories, uniqueName } from './helpers';
import { makePhoto } from './photo-helpers';
import { SESSION_COOKIE, STAFF_PAGES, signIn } from './staff-helpers';

/** An available animal with a placed order, made through the API with the site's (partner) key. */
const placedOrder = async (api: TApiClient) => {
  const category = (await categories(api))[0];
  const created = await api.pets.createPet({
    body: { name: uniqueName('Guarded'), categoryId: category?.id ?? 1, status: 'available' },
  });
  if (created.status !== 201) {
    throw new Error(`createPet answered ${created.status}`);
  }
  const placed = await api.orders.placeOrder({
    body: { petId: created.body.id, adopter: { name: 'Grace Hopper', email: 'grace@example.org' } },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  if (placed.status !== 201) {
    throw new Error(`placeOrder answered ${placed.status}`);
  }
  return { pet: created.body, order: placed.body };
};

const expectSignInPage = async (page: Page, siteUrl: string) => {
  await expect(page).toHaveURL(new RegExp(`^${siteUrl}/staff/sign-in`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Staff sign in');
};

test.describe('The back office without a session', () => {
  test('every /staff page redirects to sign in and shows nothing of the back office', async ({
    page,
    stack,
  }) => {
    test.setTimeout(60_000); // ten pages, each a redirect and a sign-in page
    for (const path of STAFF_PAGES) {
      const response = await page.goto(`${stack.siteUrl}${path}`);
      await expectSignInPage(page, stack.siteUrl);
      expect(response?.status(), path).toBe(200);
      await expect(page.getByRole('navigation', { name: 'Staff' })).toHaveCount(0);
      await expect(page.getByText('Grace Hopper')).toHaveCount(0);
    }
  });

  test('every action does nothing without a session: it goes to sign in and changes nothing', async ({
    page,
    stack,
    api,
  }) => {
    const { pet, order } = await placedOrder(api);
    await signIn(page, stack.siteUrl, stack.staffAccount);

    // Approve, confirmed, but the session is gone by the time the form is sent.
    await page.goto(`${stack.siteUrl}/staff/applications/${order.id}?confirm=approve`);
    await page.context().clearCookies();
    await page.getByRole('button', { name: 'Yes, approve' }).click();
    await expectSignInPage(page, stack.siteUrl);
    const after = await api.orders.getOrder({ params: { orderId: order.id } });
    expect(after.status === 200 && after.body.status).toBe('placed');

    // Editing an animal.
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await page.goto(`${stack.siteUrl}/staff/animals/${pet.id}`);
    await page.getByLabel('Name').fill('Renamed by nobody');
    await page.context().clearCookies();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expectSignInPage(page, stack.siteUrl);
    const unchanged = await api.pets.listPets({ query: { id: String(pet.id) } });
    expect(unchanged.status === 200 && unchanged.body[0]?.name).toBe(pet.name);

    // Adding an animal.
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await page.goto(`${stack.siteUrl}/staff/animals/new`);
    const name = uniqueName('Never added');
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Category').selectOption({ index: 1 });
    await page.context().clearCookies();
    await page.getByRole('button', { name: 'Add animal' }).click();
    await expectSignInPage(page, stack.siteUrl);
    const listed = await api.pets.listPets({ query: { limit: 100 } });
    expect(listed.status === 200 && listed.body.some((each) => each.name === name)).toBe(false);

    // Adding a photo.
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await page.goto(`${stack.siteUrl}/staff/animals/${pet.id}`);
    const photo = await makePhoto();
    await page.getByLabel('Add a photo').setInputFiles({
      name: photo.name,
      mimeType: photo.mimeType,
      buffer: photo.buffer,
    });
    await page.context().clearCookies();
    await page.getByRole('button', { name: 'Upload photo' }).click();
    await expectSignInPage(page, stack.siteUrl);
    const photoless = await api.pets.listPets({ query: { id: String(pet.id) } });
    expect(photoless.status === 200 && photoless.body[0]?.photos).toEqual([]);
  });
});

test.describe('Staff sign in', () => {
  test('refuses a wrong password, an unknown email, a deactivated account and a blank form, in plain words', async ({
    page,
    stack,
  }) => {
    const WRONG = 'That email and password do not match.';
    const cases = [
      [stack.staffAccount.email, `${stack.staffAccount.password}x`, WRONG],
      ['nobody@store.test', stack.staffAccount.password, WRONG],
      [
        stack.deactivatedAccount.email,
        stack.deactivatedAccount.password,
        'This account has been deactivated: ask an administrator.',
      ],
    ] as const;
    for (const [email, password, message] of cases) {
      await page.goto(`${stack.siteUrl}/staff/sign-in`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(page.locator('#sign-in-error')).toContainText(message);
      await expect(page.locator('#sign-in-error')).toBeFocused();
      await expect(page).toHaveURL(`${stack.siteUrl}/staff/sign-in`);
      // The typed password is not sent back into the page.
      await expect(page.getByLabel('Password')).toHaveValue('');
      expect((await page.context().cookies()).map(({ name }) => name)).not.toContain(
        SESSION_COOKIE,
      );
    }
    // A blank form: each field says what it needs, and the focus goes to the first.
    await page.goto(`${stack.siteUrl}/staff/sign-in`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.locator('#sign-in-email-error')).toHaveText('Enter your email address.');
    await expect(page.locator('#sign-in-password-error')).toHaveText('Enter your password.');
    await expect(page.locator('#sign-in-error')).toContainText('Enter your email address.');
    await expect(page.getByLabel('Email')).toBeFocused();
  });

  test('a staff member signs in; the cookie is httpOnly, SameSite=Lax, sealed and expires', async ({
    page,
    stack,
  }) => {
    const before = Date.now() / 1000;
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await expect(page.getByText('Signed in as Front desk')).toBeVisible();
    const cookie = (await page.context().cookies()).find(({ name }) => name === SESSION_COOKIE);
    expect(cookie).toBeDefined();
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    // Plain HTTP here; over HTTPS (X-Forwarded-Proto: https) it is Secure.
    expect(cookie?.secure).toBe(false);
    expect(cookie?.expires).toBeGreaterThan(before + 7 * 3600);
    expect(cookie?.expires).toBeLessThan(before + 9 * 3600);
    expect(cookie?.value).not.toContain(stack.staffAccount.password);
    expect(await page.evaluate(() => document.cookie)).not.toContain(SESSION_COOKIE);
  });

  test('signing out ends the session: the back office asks to sign in again', async ({
    page,
    stack,
  }) => {
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expectSignInPage(page, stack.siteUrl);
    await expect(page.getByRole('status')).toHaveText('You are signed out.');
    expect((await page.context().cookies()).map(({ name }) => name)).not.toContain(SESSION_COOKIE);
    await page.goto(`${stack.siteUrl}/staff/applications`);
    await expectSignInPage(page, stack.siteUrl);
  });

  test('a tampered or forged cookie is no session', async ({ page, stack }) => {
    await signIn(page, stack.siteUrl, stack.staffAccount);
    const context = page.context();
    const cookie = (await context.cookies()).find(({ name }) => name === SESSION_COOKIE);
    expect(cookie).toBeDefined();
    const value = cookie?.value ?? '';
    const middle = Math.floor(value.length / 2);
    const flipped = value[middle] === 'A' ? 'B' : 'A';
    const tampered = `${value.slice(0, middle)}${flipped}${value.slice(middle + 1)}`;
    const url = stack.siteUrl;
    await context.clearCookies();
    await context.addCookies([{ name: SESSION_COOKIE, value: tampered, url }]);
    await page.goto(`${url}/staff/applications`);
    await expectSignInPage(page, url);

    // Sealed as iron-session would, with a staff key as the credential, but not with the site's
    // secret.
    const forged = await sealData(
      { credential: stack.staffApiKey, role: 'staff', name: 'Forger', sessionId: '1' },
      { password: 'not-the-sites-secret-but-32-chars-long!!', ttl: 3600 },
    );
    await context.clearCookies();
    await context.addCookies([{ name: SESSION_COOKIE, value: forged, url }]);
    await page.goto(`${url}/staff/animals`);
    await expectSignInPage(page, url);

    // Any text at all.
    await context.clearCookies();
    await context.addCookies([{ name: SESSION_COOKIE, value: 'role=staff', url }]);
    await page.goto(`${url}/staff`);
    await expectSignInPage(page, url);
  });

  test('works without JavaScript: sign in, refusal, sign out', async ({ browser, stack }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${stack.siteUrl}/staff/sign-in`);
    await page.getByLabel('Email').fill(`nobody-${Date.now()}@store.test`);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.locator('#sign-in-error')).toContainText('do not match');
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expectSignInPage(page, stack.siteUrl);
    await context.close();
  });
});

test.describe("The back office's own layout", () => {
  test('its own header, at a desk and on a phone; none of the public site’s header and footer', async ({
    page,
    stack,
  }) => {
    const publicHeader = page.getByRole('navigation', { name: 'Main' });
    const footer = page.getByRole('contentinfo');
    const banner = page.getByRole('banner');

    // From the public site to its door: the back office's header, and the way back.
    await page.goto(stack.siteUrl);
    await expect(publicHeader).toBeVisible();
    await page.getByRole('link', { name: 'Staff sign in' }).click();
    await expectSignInPage(page, stack.siteUrl);
    await expect(banner).toHaveCount(1);
    await expect(banner).toContainText('Back office');
    await expect(publicHeader).toHaveCount(0);
    await expect(footer).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Staff' })).toHaveCount(0);
    await banner.getByRole('link', { name: 'Back to the public site' }).click();
    await expect(publicHeader).toBeVisible();
    await expect(footer).toBeVisible();

    // Signed in: the back office's sections, the person and "Sign out", in its header.
    await signIn(page, stack.siteUrl, stack.staffAccount);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(banner).toHaveCount(1);
      await expect(banner).toContainText('Back office');
      const nav = banner.getByRole('navigation', { name: 'Staff' });
      for (const section of ['Applications', 'Animals', 'Add an animal']) {
        await expect(nav.getByRole('link', { name: section, exact: true })).toBeVisible();
      }
      await expect(banner).toContainText(`Signed in as ${stack.staffAccount.name}`);
      await expect(banner.getByRole('button', { name: 'Sign out', exact: true })).toBeVisible();
      await expect(publicHeader).toHaveCount(0);
      await expect(footer).toHaveCount(0);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await banner.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expectSignInPage(page, stack.siteUrl);
    await expect(page.getByRole('navigation', { name: 'Staff' })).toHaveCount(0);
    await expect(banner.getByRole('link', { name: 'Back to the public site' })).toBeVisible();
  });
});
