import { expect } from 'vitest';
import type { TTestApi } from './api-harness';

/** The next page's address (path and query) from a list's `Link` header, or null on the last page. */
export const nextPageOf = (api: TTestApi, response: Response): string | null => {
  const match = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '');
  if (!match?.[1]) {
    return null;
  }
  const url = new URL(match[1], api.baseUrl);
  return url.pathname + url.search;
};

/** Every item of every page of a list from `first`, `between` run after each page. */
export const walkPages = async <T>(
  api: TTestApi,
  key: string,
  first: string,
  between: () => Promise<void> = async () => {},
): Promise<T[]> => {
  const seen: T[] = [];
  let path: string | null = first;
  while (path) {
    const response = await api.fetch(path, { key });
    expect(response.status, await response.clone().text()).toBe(200);
    seen.push(...((await response.json()) as T[]));
    path = nextPageOf(api, response);
    await between();
  }
  return seen;
};
