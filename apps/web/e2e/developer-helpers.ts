import { randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import type { TStack } from './harness/stack';
import { linksOf, waitForMail } from './mail-helpers';

/** A developer of the portal's tests: a fresh address each time, and a password of their own. */
export type TDeveloper = { email: string; password: string; name: string; organization: string };

export const newDeveloper = (): TDeveloper => {
  const tag = randomBytes(5).toString('hex');
  return {
    email: `dev-${tag}@example.org`,
    password: `pw-${randomBytes(12).toString('base64url')}`,
    name: 'Dana Developer',
    organization: `Shelter Apps ${tag}`,
  };
};

/** Fills /developers/sign-up and sends it (the site signs the developer in). */
export const fillSignUp = async (page: Page, siteUrl: string, developer: TDeveloper) => {
  await page.goto(`${siteUrl}/developers/sign-up`);
  await page.getByLabel('Email').fill(developer.email);
  await page.getByLabel('Password').fill(developer.password);
  await page.getByLabel('Your name').fill(developer.name);
  await page.getByLabel('Organisation').fill(developer.organization);
  await page.getByRole('button', { name: 'Create my account' }).click();
};

/** The path of the verify link of the developer's sign-up email. */
export const verifyLinkOf = async (stack: TStack, email: string): Promise<string> => {
  const mail = await waitForMail(stack, email, /Confirm your email/);
  const link = linksOf(mail).find((href) => href.includes('/developers/verify/'));
  expect(link, 'a /developers/verify/ link').toBeDefined();
  return new URL(link as string).pathname;
};

/**
 * A developer signed up, signed in on `page` and with the address confirmed: on the dashboard.
 */
export const signedUpDeveloper = async (page: Page, stack: TStack): Promise<TDeveloper> => {
  const developer = newDeveloper();
  await fillSignUp(page, stack.siteUrl, developer);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your email');
  await page.goto(`${stack.siteUrl}${await verifyLinkOf(stack, developer.email)}`);
  await page.getByRole('button', { name: 'Confirm my email address' }).click();
  await expect(page).toHaveURL(`${stack.siteUrl}/developers?verified=1`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(developer.organization);
  return developer;
};

/** Creates a key at /developers/keys/new; the key as the page shows it, this once. */
export const createKeyIn = async (
  page: Page,
  siteUrl: string,
  name: string,
  mode: 'Test' | 'Live' = 'Test',
): Promise<string> => {
  await page.goto(`${siteUrl}/developers/keys/new`);
  await page.getByLabel('Name').fill(name);
  await page.getByLabel(new RegExp(`^${mode}:`)).check();
  await page.getByRole('button', { name: 'Create the key' }).click();
  await expect(page.getByText("You won't see this key again.")).toBeVisible();
  return ((await page.locator('#issued-key').textContent()) ?? '').trim();
};

/**
 * Adds a webhook endpoint for the newest key that may write, sending every event to a closed
 * port on the loopback (allowed in the tests' API); the endpoint page's path.
 */
export const addEndpointIn = async (page: Page, siteUrl: string): Promise<string> => {
  await page.goto(`${siteUrl}/developers/webhooks/new`);
  await page.getByLabel('Address').fill('http://127.0.0.1:9/hooks');
  await page.getByLabel('Every event').check();
  await page.getByRole('button', { name: 'Add the endpoint' }).click();
  await expect(page.getByText("You won't see this secret again.")).toBeVisible();
  const href = await page.getByRole('link', { name: 'Send it a test event' }).getAttribute('href');
  return href ?? '';
};
