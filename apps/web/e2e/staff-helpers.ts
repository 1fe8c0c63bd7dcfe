import type { Page } from '@playwright/test';
import { expect } from './fixtures';
import type { TAccount } from './harness/stack';

/** Every page of the back office (the ids are made up: without a session none is even looked up). */
export const STAFF_PAGES = [
  '/staff',
  '/staff/applications',
  '/staff/applications?status=placed',
  '/staff/applications/1',
  '/staff/animals',
  '/staff/animals/new',
  '/staff/animals/1',
  '/staff/searches',
  '/staff/account',
  '/staff/team',
  '/staff/audit',
  '/staff/plans',
  '/staff/mail',
  '/staff/mail/1',
] as const;

/** Types an email and a password into /staff/sign-in and sends them. */
export const fillSignIn = async (
  page: Page,
  siteUrl: string,
  account: Pick<TAccount, 'email' | 'password'>,
) => {
  await page.goto(`${siteUrl}/staff/sign-in`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
};

/** Signs in at /staff/sign-in as a person would, and waits for the applications queue. */
export const signIn = async (
  page: Page,
  siteUrl: string,
  account: Pick<TAccount, 'email' | 'password'>,
) => {
  await fillSignIn(page, siteUrl, account);
  await expect(page).toHaveURL(`${siteUrl}/staff/applications`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Applications');
};

/** The session cookie of the back office (lib/session.ts). */
export const SESSION_COOKIE = 'pets_session';
