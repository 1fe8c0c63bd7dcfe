import type { TCategory, TListPetsQueryInput, TPet } from '@pets/contract';
import type { Locator, Page } from '@playwright/test';
import { nextLinkOf } from '../src/lib/http-headers';
import { expect, type TApiClient } from './fixtures';

/** The cards of the Browse grid. */
export const cards = (page: Page): Locator =>
  page.getByRole('list', { name: 'Animals' }).getByRole('listitem');

export const cardNames = (page: Page): Promise<string[]> =>
  cards(page).getByRole('heading', { level: 2 }).allInnerTexts();

/** Pages of `listPets` as the API gives them (newest first), following its Link header. */
export const apiPages = async (
  api: TApiClient,
  apiUrl: string,
  query: TListPetsQueryInput,
  maxPages = 50,
): Promise<TPet[][]> => {
  const pages: TPet[][] = [];
  let cursor: string | undefined;
  do {
    const response = await api.pets.listPets({ query: { ...query, cursor } });
    expect(response.status, 'listPets through the contract client').toBe(200);
    if (response.status !== 200) {
      break;
    }
    pages.push(response.body);
    cursor =
      nextLinkOf(response.headers.get('link'), apiUrl)?.searchParams.get('cursor') ?? undefined;
  } while (cursor && pages.length < maxPages);
  return pages;
};

export const allPets = async (
  api: TApiClient,
  apiUrl: string,
  query: TListPetsQueryInput = {},
): Promise<TPet[]> => (await apiPages(api, apiUrl, { ...query, limit: 100 })).flat();

export const categories = async (api: TApiClient): Promise<TCategory[]> => {
  const response = await api.categories.listCategories();
  expect(response.status).toBe(200);
  return response.status === 200 ? response.body : [];
};

export const chunk = <T>(items: T[], size: number): T[][] => {
  const chunks: T[][] = [];
  for (let index = 0; index < items.length; index += size) {
    chunks.push(items.slice(index, index + size));
  }
  return chunks;
};

/** A name no other test run or seed uses. */
export const uniqueName = (prefix: string): string =>
  `${prefix} ${Date.now().toString(36).slice(-4)}${Math.random().toString(36).slice(2, 5)}`;

/** Text that would betray a stack trace or a raw error in a page. */
export const expectNoTechnicalDetails = async (page: Page): Promise<void> => {
  // What a person sees (innerText), not the markup: the RSC payload in <script> is no one's reading.
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's rendered-text reader, not the DOM property.
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(
    /\bat \S+ \(.*:\d+:\d+\)|\bat .*\.js:\d+|Error:|ECONNREFUSED|stack|digest/i,
  );
  expect(text).not.toMatch(/\b(4\d\d|5\d\d)\b.*\b(status|error|code)\b/i);
  expect(text).not.toContain('rate_limited');
};

/** Why the tests of the rate-limited state are skipped while the API has no limiter. */
export const NO_RATE_LIMITS =
  'The API does not enforce rate limits yet: nothing can provoke the 429 this test needs.';
