import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { expectNoSeriousViolations } from './axe';
import { fillSignUp, newDeveloper } from './developer-helpers';
import { expect, test } from './fixtures';
import { SCREENSHOTS_DIR } from './harness/paths';
import type { TStack } from './harness/stack';
import { linksOf, waitForMail } from './mail-helpers';
import { signIn } from './staff-helpers';

/**
 * Passkeys (issue 27, slice 5) in Chromium with a CDP virtual authenticator (a platform
 * authenticator with user verification, as a laptop's fingerprint reader): a staff member adds a
 * passkey on the account page, signs out, signs in with it and lands in the back office; removed,
 * it signs in no more. The real API checks the authenticator's real signatures.
 *
 * Browsers refuse an IP address as the relying party: these tests browse the main site as
 * `http://localhost:<port>` (a secure context), which the harness gives the API as its
 * WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS (docs/decisions.md, "Passkeys").
 */

const PHONE = { width: 390, height: 844 };

const localSite = (stack: TStack) => stack.siteUrl.replace('//127.0.0.1:', '//localhost:');

/** A fresh browser with a virtual authenticator that keeps passkeys and verifies its user. */
const withAuthenticator = async (browser: Browser) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const credentials = async () =>
    (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  return { context, page, credentials };
};

const screenshot = async (page: Page, name: string) => {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({
    path: join(SCREENSHOTS_DIR, `${name}-${width < 600 ? 'phone' : 'desktop'}.png`),
    fullPage: true,
  });
};

const signOut = async (page: Page, site: string) => {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(`${site}/staff/sign-in?signed-out=1`);
};

test.describe('passkeys in the back office', () => {
  test('a staff member adds a passkey, signs in with it, removes it; then it no longer signs in', async ({
    browser,
    stack,
  }) => {
    test.setTimeout(120_000);
    const site = localSite(stack);
    const { context, page, credentials } = await withAuthenticator(browser);
    await signIn(page, site, stack.staffAccount);

    await page.goto(`${site}/staff/account`);
    const passkeys = page.getByRole('region', { name: 'Passkeys' });
    await expect(passkeys).toContainText('You have no passkeys yet.');
    await passkeys.getByLabel('Name (optional)').fill('Front desk laptop');
    await passkeys.getByLabel('Your password').fill(stack.staffAccount.password);
    await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(passkeys.getByRole('status')).toContainText('Passkey “Front desk laptop” added.');
    await expect(page.getByRole('list', { name: 'Your passkeys' })).toContainText(
      'Front desk laptop',
    );
    await expect(page.getByRole('list', { name: 'Your passkeys' })).toContainText('not used yet');
    // The authenticator keeps it, for this site, for this person.
    const [credential] = await credentials();
    expect(credential).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
    for (const viewport of [undefined, PHONE]) {
      if (viewport) {
        await page.setViewportSize(viewport);
      }
      await expectNoSeriousViolations(
        page,
        `the account page with a passkey${viewport ? ' on a phone' : ''}`,
      );
      await screenshot(page, 'staff-account-passkeys');
    }
    await page.setViewportSize({ width: 1280, height: 720 });

    await signOut(page, site);
    const button = page.getByRole('button', { name: 'Sign in with a passkey' });
    await expect(button).toBeEnabled();
    for (const viewport of [undefined, PHONE]) {
      if (viewport) {
        await page.setViewportSize(viewport);
      }
      await expectNoSeriousViolations(page, `the sign-in page${viewport ? ' on a phone' : ''}`);
      await screenshot(page, 'staff-sign-in-passkey');
    }
    await page.setViewportSize({ width: 1280, height: 720 });
    await button.click();
    await expect(page).toHaveURL(`${site}/staff/applications`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Applications');

    // The session is a passkey's, listed with the others; the passkey was just used.
    await page.goto(`${site}/staff/account`);
    const list = page.getByRole('list', { name: 'Your passkeys' });
    await expect(list).toContainText('last used');
    // Renamed, without JavaScript needed: a plain form under "Rename".
    await list.locator('summary', { hasText: 'Rename' }).click();
    await list.getByLabel('New name').fill('Laptop at the desk');
    await list.getByRole('button', { name: 'Save the name' }).click();
    await expect(page).toHaveURL(`${site}/staff/account?passkey-renamed=done`);
    await expect(page.getByRole('region', { name: 'Passkeys' }).getByRole('status')).toHaveText(
      'The passkey is renamed.',
    );
    await expect(list).toContainText('Laptop at the desk');
    await expectNoSeriousViolations(page, 'the account page after renaming a passkey');
    await list.getByRole('button', { name: 'Remove the passkey Laptop at the desk' }).click();
    await expect(page).toHaveURL(`${site}/staff/account?passkey-removed=1`);
    await expect(page.getByRole('region', { name: 'Passkeys' })).toContainText(
      'You have no passkeys yet.',
    );

    // The authenticator still has it, but the site no longer knows it.
    await signOut(page, site);
    expect(await credentials()).toHaveLength(1);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(
      page.getByRole('region', { name: 'Or use a passkey' }).getByRole('alert'),
    ).toContainText('That passkey did not sign you in');
    await expect(page).toHaveURL(/\/staff\/sign-in/);
    await page.goto(`${site}/staff/applications`);
    await expect(page).toHaveURL(/\/staff\/sign-in\?next=/);
    await context.close();
  });

  test('without JavaScript the sign-in page says passkeys need it, and the password still signs in', async ({
    browser,
    stack,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${stack.siteUrl}/staff/sign-in`);
    await expect(page.getByText('Signing in with a passkey needs JavaScript.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeDisabled();
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await page.goto(`${stack.siteUrl}/staff/account`);
    await expect(page.getByText('Adding a passkey needs JavaScript.')).toBeVisible();
    await context.close();
  });
});

test.describe('a passkey added from a borrowed session', () => {
  test('needs the password, emails the owner, and a reset removes it: it signs in no more', async ({
    browser,
    stack,
  }) => {
    test.setTimeout(120_000);
    const site = localSite(stack);
    // The owner signs up at the portal; someone else then holds their signed-in browser.
    const owner = newDeveloper();
    const borrowed = await withAuthenticator(browser);
    await fillSignUp(borrowed.page, site, owner);
    await expect(borrowed.page.getByRole('heading', { level: 1 })).toHaveText('Check your email');

    await borrowed.page.goto(`${site}/developers/account`);
    const passkeys = borrowed.page.getByRole('region', { name: 'Passkeys' });
    await passkeys.getByLabel('Name (optional)').fill('Not the owner');
    await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(passkeys.getByRole('alert')).toContainText(
      'Enter your password to add a passkey.',
    );
    await passkeys.getByLabel('Your password').fill('a guess at their password');
    await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(passkeys.getByRole('alert')).toContainText('That is not your password.');
    // What was typed stays; nothing was made.
    await expect(passkeys.getByLabel('Name (optional)')).toHaveValue('Not the owner');
    expect(await borrowed.credentials()).toHaveLength(0);
    await expect(passkeys).toContainText('You have no passkeys yet.');

    // With the password (say, watched over a shoulder): added, and the owner is told at once.
    await passkeys.getByLabel('Your password').fill(owner.password);
    await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(passkeys.getByRole('status')).toContainText('Passkey “Not the owner” added.');
    const told = await waitForMail(stack, owner.email, /^A passkey was added to your/);
    expect(told.text).toContain('A passkey called “Not the owner” was added to your account');
    expect(linksOf(told).some((href) => href.endsWith('/developers/reset'))).toBe(true);

    // The owner secures the account: a reset link, a new password.
    const owners = await browser.newContext();
    const ownerPage = await owners.newPage();
    await ownerPage.goto(`${site}/developers/reset`);
    await ownerPage.getByLabel('Email').fill(owner.email);
    await ownerPage.getByRole('button', { name: 'Email me a link' }).click();
    const resetMail = await waitForMail(stack, owner.email, /^Reset your/);
    const resetLink = linksOf(resetMail).find((href) => href.includes('/developers/reset/'));
    expect(resetLink).toBeDefined();
    await ownerPage.goto(`${site}${new URL(resetLink as string).pathname}`);
    await expect(ownerPage.getByText('your passkeys are removed')).toBeVisible();
    const newPassword = `${owner.password}-new`;
    await ownerPage.getByLabel('New password', { exact: true }).fill(newPassword);
    await ownerPage.getByLabel('New password again').fill(newPassword);
    await ownerPage.getByRole('button', { name: 'Set my password' }).click();
    await expect(ownerPage).toHaveURL(/\/developers\/sign-in\?reset=1/);

    // The borrowed browser's session has ended, and its passkey signs in no more.
    await borrowed.page.goto(`${site}/developers/account`);
    await expect(borrowed.page).toHaveURL(/\/developers\/sign-in/);
    expect(await borrowed.credentials()).toHaveLength(1);
    await borrowed.page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(
      borrowed.page.getByRole('region', { name: 'Or use a passkey' }).getByRole('alert'),
    ).toContainText('That passkey did not sign you in');
    await expect(borrowed.page).toHaveURL(/\/developers\/sign-in/);

    // The owner signs in with the new password: no passkey is left on the account.
    await ownerPage.getByLabel('Email').fill(owner.email);
    await ownerPage.getByLabel('Password').fill(newPassword);
    await ownerPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(ownerPage).toHaveURL(`${site}/developers`);
    await ownerPage.goto(`${site}/developers/account`);
    await expect(ownerPage.getByRole('region', { name: 'Passkeys' })).toContainText(
      'You have no passkeys yet.',
    );
    await borrowed.context.close();
    await owners.close();
  });
});
