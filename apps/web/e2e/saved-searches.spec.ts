import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expectNoSeriousViolations } from './axe';
import { expect, test } from './fixtures';
import { SCREENSHOTS_DIR } from './harness/paths';
import { categories } from './helpers';
import { linksOf, waitForMail } from './mail-helpers';
import { signIn } from './staff-helpers';

/**
 * Saved searches (issue 28): a visitor on a filtered list asks to be emailed when a new animal
 * matches; the confirmation email arrives (real SMTP), the page's button confirms (opening the
 * link does not), staff add a matching animal and the alert arrives with its animal; the alert's
 * unsubscribe page stops it, and its one-click address takes a mail client's POST. Every new page
 * is axe-clean at desktop and phone widths, and photographed.
 */

const PHONE = { width: 390, height: 844 };

const screenshot = async (page: Page, name: string) => {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({
    path: join(SCREENSHOTS_DIR, `${name}-${width < 600 ? 'phone' : 'desktop'}.png`),
    fullPage: true,
  });
};

/** Axe and a screenshot of the page as it is, at desktop then phone width. */
const checkBothWidths = async (page: Page, name: string) => {
  for (const viewport of [undefined, PHONE]) {
    if (viewport) {
      await page.setViewportSize(viewport);
    }
    await expectNoSeriousViolations(page, `${name} (${viewport ? 'phone' : 'desktop'})`);
    await screenshot(page, name);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
};

test.describe('Saved searches', () => {
  test('a visitor subscribes on a filtered list, confirms, gets an alert and unsubscribes', async ({
    page,
    browser,
    stack,
    api,
    staffApi,
  }) => {
    test.setTimeout(150_000);
    // A word no other animal's name has: the list is empty, and only our animal matches.
    const word = `Zephyr${Date.now().toString(36)}`;
    const email = `saver-${Date.now().toString(36)}@example.org`;

    await page.goto(`${stack.siteUrl}/?name=${word}`);
    await expect(
      page.getByRole('heading', { name: 'No animals match these filters' }),
    ).toBeVisible();
    const form = page.getByRole('region', { name: 'Email me when a new animal matches' });
    await expect(form).toContainText(`Animals, named “${word}”`);
    await checkBothWidths(page, 'saved-search-form');
    await form.getByLabel('Your email').fill(email);
    await form.getByRole('button', { name: 'Email me new matches' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Almost done' })).toContainText(email);

    const confirmation = await waitForMail(stack, email, /Confirm your animal alerts/);
    const confirmLink = linksOf(confirmation).find((href) =>
      href.includes('/saved-searches/confirm/'),
    );
    expect(confirmLink, 'a /saved-searches/confirm/ link').toBeDefined();
    // Opening the link (as a mail scanner does) confirms nothing; the button does.
    await page.goto(`${stack.siteUrl}${new URL(confirmLink as string).pathname}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm your alerts');
    await checkBothWidths(page, 'saved-search-confirm');
    await page.getByRole('button', { name: 'Confirm my alerts' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your alerts are on');

    // Staff see what people wait for, in words, without an address.
    const staffPage = await (await browser.newContext()).newPage();
    await signIn(staffPage, stack.siteUrl, stack.staffAccount);
    await staffPage
      .getByRole('navigation', { name: 'Staff' })
      .getByRole('link', { name: 'Saved searches' })
      .click();
    await expect(staffPage.getByRole('heading', { level: 1 })).toHaveText('Saved searches');
    const waiting = staffPage.getByRole('listitem').filter({ hasText: word });
    await expect(waiting).toContainText('1 person waits');
    await expect(staffPage.getByText(email)).toHaveCount(0);
    await checkBothWidths(staffPage, 'staff-saved-searches');
    await staffPage.context().close();

    // Staff add a matching animal: the alert names it, with its page.
    const [category] = await categories(api);
    const created = await staffApi.pets.createPet({
      body: { name: `${word} Bean`, categoryId: category?.id ?? 1, status: 'available' },
    });
    expect(created.status).toBe(201);
    const pet = created.status === 201 ? created.body : undefined;
    const alert = await waitForMail(stack, email, /matches your search/);
    expect(alert.subject).toBe(`${word} Bean matches your search: Animals, named “${word}”`);
    expect(linksOf(alert)).toContain(`${stack.siteUrl}/pets/${pet?.id}`);
    const unsubscribeLink = linksOf(alert).find((href) =>
      href.includes('/saved-searches/unsubscribe/'),
    );
    expect(unsubscribeLink, 'a /saved-searches/unsubscribe/ link').toBeDefined();
    const unsubscribePath = new URL(unsubscribeLink as string).pathname;

    // The unsubscribe page: a button, which stops the alerts.
    await page.goto(`${stack.siteUrl}${unsubscribePath}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stop these emails');
    await checkBothWidths(page, 'saved-search-unsubscribe');
    await page.getByRole('button', { name: 'Stop these emails' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'You will get no more of these emails',
    );
    await checkBothWidths(page, 'saved-search-unsubscribed');

    // A mail client's one-click unsubscribe (RFC 8058): a POST with no cookie, no page.
    const oneClick = await fetch(`${stack.siteUrl}${unsubscribePath}/one-click`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    // Opened in a browser, the one-click address shows the page with its button.
    await page.goto(`${stack.siteUrl}${unsubscribePath}/one-click`);
    await expect(page).toHaveURL(`${stack.siteUrl}${unsubscribePath}`);
  });

  test('works without JavaScript: subscribe, a refusal in plain words, confirm', async ({
    browser,
    stack,
  }) => {
    test.setTimeout(90_000);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const email = `nojs-${Date.now().toString(36)}@example.org`;
    await page.goto(`${stack.siteUrl}/?age=young&goodWithChildren=true`);
    const form = page.getByRole('region', { name: 'Email me when a new animal matches' });
    await expect(form).toContainText('Young animals, good with children');
    // An address the browser lets through but that is not one (two dots in a row, which the
    // contract's rule refuses): said in plain words.
    await form.getByLabel('Your email').fill('robin..hood@example.org');
    await form.getByRole('button', { name: 'Email me new matches' }).click();
    await expect(page.getByRole('alert')).toContainText('Enter your email address');
    await page
      .getByRole('region', { name: 'Email me when a new animal matches' })
      .getByLabel('Your email')
      .fill(email);
    await page.getByRole('button', { name: 'Email me new matches' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Almost done' })).toContainText(email);

    const confirmation = await waitForMail(stack, email, /Confirm your animal alerts/);
    const confirmLink = linksOf(confirmation).find((href) =>
      href.includes('/saved-searches/confirm/'),
    );
    await page.goto(`${stack.siteUrl}${new URL(confirmLink as string).pathname}`);
    await page.getByRole('button', { name: 'Confirm my alerts' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your alerts are on');
    await context.close();
  });
});
