import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expectNoSeriousViolations } from './axe';
import { createKeyIn, signedUpDeveloper } from './developer-helpers';
import { expect, test } from './fixtures';
import { SCREENSHOTS_DIR } from './harness/paths';
import { signIn as staffSignIn } from './staff-helpers';

/**
 * Issue 27: "sessions listed on the account page", and usage per hour. A developer signed in on
 * two browsers sees both at /developers/account, ends the other one from the second (without
 * JavaScript), and the first is asked to sign in again; the staff account page lists sessions the
 * same way. After calls with a key, the usage page's hourly view counts them in this hour's row.
 * Real API, real database, Chromium.
 */

const FIREFOX_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const WIDTHS = [1280, 390] as const;

/** The states that need data (screenshots.spec.ts shows the pages on a fresh store). */
const screenshot = async (page: Page, name: string) => {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({
    path: join(SCREENSHOTS_DIR, `${name}-${width < 600 ? 'phone' : 'desktop'}.png`),
    fullPage: true,
  });
};

test.describe('Where you are signed in', () => {
  test('a developer on two browsers ends the first from the second, which must sign in again', async ({
    browser,
    stack,
  }) => {
    test.setTimeout(120_000);
    const firstContext = await browser.newContext({ userAgent: FIREFOX_ON_WINDOWS });
    const first = await firstContext.newPage();
    const developer = await signedUpDeveloper(first, stack);

    // The second browser runs no JavaScript: the list and its "End" button are plain HTML.
    const secondContext = await browser.newContext({ javaScriptEnabled: false });
    const second = await secondContext.newPage();
    await second.goto(`${stack.siteUrl}/developers/sign-in`);
    await second.getByLabel('Email').fill(developer.email);
    await second.getByLabel('Password').fill(developer.password);
    await second.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(second).toHaveURL(`${stack.siteUrl}/developers`);

    await second.goto(`${stack.siteUrl}/developers/account`);
    await expect(
      second.getByRole('heading', { level: 2, name: 'Where you’re signed in' }),
    ).toBeVisible();
    const sessions = second.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
    await expect(sessions).toHaveCount(2);
    // Newest first: this browser, then the first one, read from its user agent.
    await expect(sessions.nth(0)).toContainText('This device');
    await expect(sessions.nth(0).getByRole('button')).toHaveCount(0);
    await expect(sessions.nth(1)).toContainText('Firefox on Windows');
    await expect(sessions.nth(1)).toContainText('Signed in');
    await expect(sessions.nth(1)).toContainText('last seen');

    // axe and screenshots with both sessions listed, at both widths.
    const checked = await browser.newContext();
    await checked.addCookies(await secondContext.cookies());
    const checkedPage = await checked.newPage();
    for (const width of WIDTHS) {
      await checkedPage.setViewportSize({ width, height: 900 });
      await checkedPage.goto(`${stack.siteUrl}/developers/account`);
      await expect(
        checkedPage.getByRole('list', { name: 'Sessions' }).getByRole('listitem'),
      ).toHaveCount(2);
      await expectNoSeriousViolations(checkedPage, `Developer account, two sessions (${width})`);
      await screenshot(checkedPage, 'developer-account-sessions');
    }
    await checked.close();

    await sessions
      .nth(1)
      .getByRole('button', { name: /^End the session on Firefox on Windows/ })
      .click();
    await expect(second).toHaveURL(`${stack.siteUrl}/developers/account?ended=done`);
    await expect(second.getByRole('status')).toHaveText(
      'That session has ended: that browser is asked to sign in again.',
    );
    await expect(sessions).toHaveCount(1);
    await expect(sessions.nth(0)).toContainText('This device');

    // The first browser is asked to sign in again at its next page.
    await first.goto(`${stack.siteUrl}/developers/keys`);
    await expect(first).toHaveURL(`${stack.siteUrl}/developers/sign-in?next=%2Fdevelopers%2Fkeys`);
    await expect(first.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    // The second one is still signed in.
    await second.goto(`${stack.siteUrl}/developers/keys`);
    await expect(second.getByRole('heading', { level: 1 })).toHaveText('Keys');

    await firstContext.close();
    await secondContext.close();
  });

  test('the staff account page lists the sessions the same way (axe and screenshots)', async ({
    page,
    stack,
  }) => {
    await staffSignIn(page, stack.siteUrl, stack.staffAccount);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${stack.siteUrl}/staff/account`);
      const sessions = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
      // The shared staff account: other tests' sessions are listed too, this one once.
      await expect(sessions.filter({ hasText: 'This device' })).toHaveCount(1);
      await expectNoSeriousViolations(page, `Staff account (${width})`);
      await screenshot(page, 'staff-account-sessions');
    }
  });
});

test.describe('Usage per hour', () => {
  test("after calls with a key, the hourly view counts them in this hour's row", async ({
    page,
    stack,
  }) => {
    test.setTimeout(120_000);
    await signedUpDeveloper(page, stack);
    const key = await createKeyIn(page, stack.siteUrl, 'Hourly app');
    const hour = new Date().toISOString().slice(0, 13);
    const statuses = await Promise.all(
      Array.from({ length: 7 }, async () => {
        const response = await fetch(`${stack.apiUrl}/pets?limit=1`, {
          headers: { authorization: `Bearer ${key}` },
        });
        return response.status;
      }),
    );
    expect(statuses).toEqual(Array(7).fill(200));
    const label = `${hour.slice(0, 10)} ${hour.slice(11, 13)}:00`;

    // Counted within seconds (the API flushes in batches): this hour's row says 7 succeeded.
    await expect
      .poll(
        async () => {
          await page.goto(`${stack.siteUrl}/developers/usage?granularity=hour`);
          await page.getByText('Show as a table').click();
          return page
            .getByRole('row', { name: new RegExp(`^${label}`) })
            .getByRole('cell')
            .allTextContents();
        },
        { timeout: 60_000, intervals: [2_000] },
      )
      .toEqual(['7', '0', '0', '0', '7']);
    await expect(page.getByRole('columnheader', { name: 'Hour (UTC)' })).toBeVisible();
    await expect(page.getByRole('rowheader')).toHaveCount(48);
    await expect(
      page.getByRole('application', { name: 'Requests per hour, by outcome' }),
    ).toBeVisible();

    // From the daily view, today's row links to its hours (plain links and a GET form).
    await page.goto(`${stack.siteUrl}/developers/usage`);
    await page.getByText('Show as a table').click();
    const dayLink = page.getByRole('link', {
      name: new RegExp(`^${hour.slice(0, 10)}\\s*, per hour$`),
    });
    await expect(dayLink).toHaveAttribute(
      'href',
      `/developers/usage?granularity=hour&day=${hour.slice(0, 10)}`,
    );
    await page.goto(`${stack.siteUrl}${await dayLink.getAttribute('href')}`);
    await expect(page.locator('.lead')).toContainText(
      `Requests per hour (UTC) on ${hour.slice(0, 10)}, with every key of your organisation: 7 in all.`,
    );
    await page.getByText('Show as a table').click();
    await expect(
      page
        .getByRole('row', { name: new RegExp(`^${label}`) })
        .getByRole('cell')
        .last(),
    ).toHaveText('7');

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${stack.siteUrl}/developers/usage?granularity=hour`);
      await expectNoSeriousViolations(page, `Usage per hour (${width})`);
      await page.getByText('Show as a table').click();
      await expectNoSeriousViolations(page, `Usage per hour as a table (${width})`);
      await screenshot(page, 'developer-usage-hourly');
    }
  });
});
