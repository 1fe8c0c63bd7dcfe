import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** axe-core on the page as it is now: no serious or critical violation, listed readably if any. */
export const expectNoSeriousViolations = async (page: Page, what: string) => {
  // After a client-side navigation Next streams the new page's <title> in just after its body, so
  // a heading can be visible a moment before the title is: wait for the title a person would see.
  await expect(page, `the title of ${what}`).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(', ')})`,
    );
  expect(serious, `axe on ${what}`).toEqual([]);
  expect(results.passes.length, `axe ran its checks on ${what}`).toBeGreaterThan(10);
};
