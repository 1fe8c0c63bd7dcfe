import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** Every page of the back office (the ids are made up: without a session none is even looked up). */
export const STAFF_PAGES = [
  '/staff',
  '/staff/applications',
  '/staff/applications?status=placed',
  '/staff/applications/1',
  '/staff/animals',
  '/staff/animals/new',
  '/staff/animals/1',
] as const;

/** Signs in at /staff/sign-in as a person would, and waits for the applications queue. */
export const signIn = async (page: Page, siteUrl: string, key: string) => {
  await page.goto(`${siteUrl}/staff/sign-in`);
  await page.getByLabel('Staff key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${siteUrl}/staff/applications`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Applications');
};

/** The session cookie of the back office (lib/session.ts). */
export const SESSION_COOKIE = 'pets_staff_session';
