import { expectNoSeriousViolations } from './axe';
import { expect, test } from './fixtures';
import { apiPages, NO_RATE_LIMITS } from './helpers';

test.describe('Accessibility (axe-core, WCAG 2.2 AA)', () => {
  test('the Browse page, plain and filtered, desktop and phone', async ({ page, stack }) => {
    await page.goto(stack.siteUrl);
    await expectNoSeriousViolations(page, 'Browse');
    await page.goto(`${stack.siteUrl}/?status=sold`);
    await expectNoSeriousViolations(page, 'Browse, adopted animals');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(stack.siteUrl);
    await expectNoSeriousViolations(page, 'Browse on a phone');
    await page.goto(`${stack.siteUrl}/?category=999999`);
    await expectNoSeriousViolations(page, 'Browse, empty');
  });

  test("an animal's page", async ({ page, stack, api }) => {
    const [pets] = await apiPages(api, stack.apiUrl, { limit: 3 }, 1);
    for (const pet of pets ?? []) {
      await page.goto(`${stack.siteUrl}/pets/${pet.id}`);
      await expectNoSeriousViolations(page, `/pets/${pet.id}`);
    }
  });

  test('the Add form, empty and with errors', async ({ page, stack }) => {
    await page.goto(`${stack.siteUrl}/pets/new`);
    await expectNoSeriousViolations(page, 'Add an animal');
    await page.getByRole('button', { name: 'Add animal' }).click();
    await expect(page.locator('#pet-name-error')).toBeVisible();
    await expectNoSeriousViolations(page, 'Add an animal, with errors');
  });

  test('the not-found, rate-limited and unreachable states', async ({ page, stack }) => {
    await page.goto(`${stack.siteUrl}/pets/987654321`);
    await expectNoSeriousViolations(page, 'not found');
    if (stack.hasRateLimits) {
      await page.goto(stack.limitedSiteUrl);
      await expect(page.getByText(/We're getting a lot of visits/)).toBeVisible();
      await expectNoSeriousViolations(page, 'rate limited');
    } else {
      test.info().annotations.push({ type: 'skipped in part', description: NO_RATE_LIMITS });
    }
    await page.goto(stack.offlineSiteUrl);
    await expectNoSeriousViolations(page, 'unreachable');
  });

  test('every control shows a visible focus ring', async ({ page, stack }) => {
    await page.goto(stack.siteUrl);
    const outlines: string[] = [];
    for (let step = 0; step < 12; step += 1) {
      await page.keyboard.press('Tab');
      outlines.push(
        await page.evaluate(() => {
          const active = document.activeElement as HTMLElement | null;
          if (!active || active === document.body) {
            return 'body';
          }
          const own = getComputedStyle(active);
          // Radios and card links draw their ring on their label / card.
          const ringed = active.closest('.segmented__option, .card') as HTMLElement | null;
          const style = own.outlineStyle !== 'none' ? own : getComputedStyle(ringed ?? active);
          return `${active.tagName} ${style.outlineStyle} ${style.outlineWidth}`;
        }),
      );
    }
    for (const outline of outlines.filter((value) => value !== 'body')) {
      expect(outline).toMatch(/ solid 3px$/);
    }
  });
});
