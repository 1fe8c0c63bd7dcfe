import type { Page } from '@playwright/test';
import { newAvailablePet } from './adopt-helpers';
import { fillSignUp, newDeveloper } from './developer-helpers';
import { expect, test } from './fixtures';
import { uniqueName } from './helpers';
import { addPhotoThroughApi, makePhoto } from './photo-helpers';
import { SESSION_COOKIE, signIn } from './staff-helpers';

/**
 * The site's own security in a real Chromium: a Content-Security-Policy that every page keeps
 * without a single violation, sessions that end everywhere, and the back office that returns to
 * the page that asked for it.
 */

/** Every CSP violation and script error the page reports, from now on. */
const watchForViolations = (page: Page): string[] => {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply)/i.test(message.text())) {
      seen.push(message.text());
    }
  });
  page.on('pageerror', (error) => {
    seen.push(`page error: ${error.message}`);
  });
  return seen;
};

test.describe('Content-Security-Policy', () => {
  test('every public and staff page runs under a nonce policy without a violation', async ({
    page,
    stack,
    api,
  }) => {
    const pet = await newAvailablePet(api, 'Strict');
    // A photo, so the pages draw a real image and its placeholder.
    await addPhotoThroughApi(api, pet.id, await makePhoto({ width: 640, height: 480 }));
    const violations = watchForViolations(page);
    const publicPages = [
      '/',
      '/?status=all&sex=female&age=young&size=small&name=a',
      `/pets/${pet.id}`,
      `/pets/${pet.id}/apply`,
      '/applications/status',
      '/match?home=flat&pets=cats',
      '/staff/sign-in',
    ];
    for (const path of publicPages) {
      const response = await page.goto(`${stack.siteUrl}${path}`);
      expect(response?.headers()['content-security-policy'], path).toMatch(/'nonce-/);
      await page.waitForLoadState('networkidle');
    }
    // A client-side navigation and a form with JavaScript: the scripts Next.js loads later too.
    await page.goto(stack.siteUrl);
    await page.getByRole('link', { name: pet.name }).first().click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(pet.name);

    await signIn(page, stack.siteUrl, stack.staffAccount);
    for (const path of [
      '/staff/applications',
      '/staff/animals',
      '/staff/animals/new',
      `/staff/animals/${pet.id}`,
    ]) {
      await page.goto(`${stack.siteUrl}${path}`);
      await page.waitForLoadState('networkidle');
    }
    expect(violations).toEqual([]);
  });
});

test.describe('Staff sessions', () => {
  test('after sign-in the back office returns to the page that asked for it, and only a staff path', async ({
    page,
    stack,
  }) => {
    await page.goto(`${stack.siteUrl}/staff/animals/new`);
    await expect(page).toHaveURL(`${stack.siteUrl}/staff/sign-in?next=%2Fstaff%2Fanimals%2Fnew`);
    await page.getByLabel('Email').fill(stack.staffAccount.email);
    await page.getByLabel('Password').fill(stack.staffAccount.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(`${stack.siteUrl}/staff/animals/new`);
    // Signed in, the footer no longer offers "Staff sign in".
    await expect(page.getByRole('link', { name: 'Staff sign in' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page).toHaveURL(/\/staff\/sign-in\?signed-out=1$/);

    // Another site as the return address is ignored.
    await page.goto(
      `${stack.siteUrl}/staff/sign-in?next=${encodeURIComponent('//evil.example/x')}`,
    );
    await page.getByLabel('Email').fill(stack.staffAccount.email);
    await page.getByLabel('Password').fill(stack.staffAccount.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(`${stack.siteUrl}/staff/applications`);
  });

  for (const javaScriptEnabled of [true, false]) {
    test(`a return path spelled to leave the site is ignored after a real sign-in (JavaScript ${
      javaScriptEnabled ? 'on' : 'off'
    })`, async ({ browser, stack }) => {
      test.setTimeout(60_000);
      // A developer of the portal, signed up in a browser of their own.
      const developer = newDeveloper();
      const signUp = await browser.newContext();
      await fillSignUp(await signUp.newPage(), stack.siteUrl, developer);
      await signUp.close();

      const attacks = [
        '/..//evil.example/phish',
        '/..\\/evil.example/phish',
        '/%2e%2e//evil.example/phish',
        '//evil.example/phish',
      ];
      const doors = [
        { area: '/staff', account: stack.staffAccount, home: '/staff/applications' },
        { area: '/developers', account: developer, home: '/developers' },
      ];
      for (const { area, account, home } of doors) {
        for (const attack of attacks) {
          const next = attack.startsWith('//') ? attack : `${area}${attack}`;
          const context = await browser.newContext({ javaScriptEnabled });
          const page = await context.newPage();
          await page.goto(`${stack.siteUrl}${area}/sign-in?${new URLSearchParams({ next })}`);
          await page.getByLabel('Email').fill(account.email);
          await page.getByLabel('Password').fill(account.password);
          await page.getByRole('button', { name: 'Sign in', exact: true }).click();
          await expect(page, `${area}/sign-in?next=${next}`).toHaveURL(`${stack.siteUrl}${home}`);
          await context.close();
        }
      }
    });
  }

  test('"Sign out everywhere" ends the person\'s sessions on every device', async ({
    browser,
    stack,
  }) => {
    const desk = await browser.newContext();
    const phone = await browser.newContext();
    const [deskPage, phonePage] = [await desk.newPage(), await phone.newPage()];
    await signIn(deskPage, stack.siteUrl, stack.staffAccount);
    await signIn(phonePage, stack.siteUrl, stack.staffAccount);
    const phoneCookie = (await phone.cookies()).find(({ name }) => name === SESSION_COOKIE);
    expect(phoneCookie).toBeDefined();

    await deskPage.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(deskPage.getByRole('status')).toContainText('You are signed out everywhere');
    // The phone still holds its cookie, and it no longer opens the back office.
    await phonePage.goto(`${stack.siteUrl}/staff/animals`);
    await expect(phonePage).toHaveURL(/\/staff\/sign-in/);
    await desk.close();
    await phone.close();
  });
});

test.describe('Back/forward cache', () => {
  test('public pages may be kept by the browser (private, no-cache); the back office never', async ({
    stack,
    api,
  }) => {
    const pet = await newAvailablePet(api, 'Restored');
    const cacheControlOf = async (path: string, cookie?: string) => {
      const response = await fetch(`${stack.siteUrl}${path}`, {
        headers: cookie ? { cookie } : {},
        redirect: 'manual',
      });
      await response.body?.cancel();
      return response.headers.get('cache-control');
    };
    for (const path of ['/', `/pets/${pet.id}`, `/pets/${pet.id}/apply`, '/match']) {
      expect(await cacheControlOf(path), path).toBe('private, no-cache');
    }
    for (const path of ['/staff/sign-in', '/developers/sign-in', '/applications/status']) {
      expect(await cacheControlOf(path), path).toContain('no-store');
    }
    // A page rendered for a signed-in person is not kept either.
    expect(await cacheControlOf('/', `${SESSION_COOKIE}=anything`)).toContain('no-store');
    // Whether Chromium then restores them from its back/forward cache is what `pnpm bench --site`
    // reports (Lighthouse's bf-cache audit): Playwright launches Chromium with that cache off.
  });
});

test.describe('Cached public pages', () => {
  test('a change made through the back office shows on the cached public page at once', async ({
    page,
    stack,
    api,
  }) => {
    const pet = await newAvailablePet(api, 'Cached');
    // The public page is read once, so the animal is in the guarded site's 30-second cache.
    await page.goto(`${stack.guardedSiteUrl}/pets/${pet.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(pet.name);
    // Renamed behind the site's back (through the API): the cached page keeps the old name.
    const outside = await fetch(`${stack.apiUrl}/pets/${pet.id}`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${stack.staffApiKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: uniqueName('Outside') }),
    });
    expect(outside.status).toBe(200);
    await page.goto(`${stack.guardedSiteUrl}/pets/${pet.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(pet.name);

    // Renamed by staff through the site: the public page shows it on the next view.
    await signIn(page, stack.guardedSiteUrl, stack.staffAccount);
    await page.goto(`${stack.guardedSiteUrl}/staff/animals/${pet.id}`);
    const renamed = uniqueName('Renamed');
    await page.getByLabel('Name').fill(renamed);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(/saved=1$/);
    await page.goto(`${stack.guardedSiteUrl}/pets/${pet.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(renamed);
  });
});
