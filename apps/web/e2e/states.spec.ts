import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { expectNoTechnicalDetails, NO_RATE_LIMITS } from './helpers';

test.describe('Failure states', () => {
  test('rate limited: says when to try again, with the number from Retry-After', async ({
    page,
    stack,
  }) => {
    test.skip(!stack.hasRateLimits, NO_RATE_LIMITS);
    // This site's key allows one request a minute: the first page view meets a 429.
    await page.goto(stack.limitedSiteUrl);
    const message = page.getByText(/^We're getting a lot of visits\. Try again in \d+ seconds?\.$/);
    await expect(message).toBeVisible();
    const seconds = Number(/in (\d+) second/.exec((await message.textContent()) ?? '')?.[1]);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(24 * 60 * 60);
    await expect(page.getByRole('link', { name: 'Try again' })).toHaveAttribute('href', '/');
    await expectNoTechnicalDetails(page);
  });

  test('rate limited: the site backs off until Retry-After instead of sending on', async ({
    page,
    stack,
  }) => {
    test.skip(!stack.hasRateLimits, NO_RATE_LIMITS);
    const log = stack.limitedSiteLogFile;
    const refusals = () =>
      (readFileSync(log, 'utf8').match(/rate limited; no API calls/g) ?? []).length;
    const secondsShown = async (path: string) => {
      await page.goto(`${stack.limitedSiteUrl}${path}`);
      const text = await page.getByText(/We're getting a lot of visits/).textContent();
      return Number(/in (\d+) second/.exec(text ?? '')?.[1]);
    };
    // Start inside a long wait, so the views below cannot straddle the end of the key's minute
    // (then the site would rightly call the API again and show a new, longer wait).
    const current = await secondsShown('/');
    if (current < 20) {
      await page.waitForTimeout((current + 1) * 1000);
      await secondsShown('/');
    }
    const before = refusals();
    const shown: number[] = [];
    for (const path of ['/', '/?status=pending', '/pets/1']) {
      shown.push(await secondsShown(path));
    }
    // No more 429s from the API: every page view was answered by the site itself, counting the
    // same wait down.
    expect(refusals() - before).toBe(0);
    expect(shown[1]).toBeLessThanOrEqual(shown[0] ?? 0);
    expect(shown[2]).toBeLessThanOrEqual(shown[1] ?? 0);
  });

  test('API unreachable: a friendly page with a retry link that keeps the filters', async ({
    page,
    stack,
  }) => {
    await page.goto(`${stack.offlineSiteUrl}/?status=pending`);
    await expect(
      page.getByRole('heading', { name: "We can't reach our animal records" }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Try again' })).toHaveAttribute(
      'href',
      '/?status=pending',
    );
    await expectNoTechnicalDetails(page);

    await page.goto(`${stack.offlineSiteUrl}/pets/1`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      "We can't reach our animal records",
    );
    await expectNoTechnicalDetails(page);

    // Staff signing in while the API is down: told calmly, nothing technical.
    await page.goto(`${stack.offlineSiteUrl}/staff/sign-in`);
    await page.getByLabel('Email').fill(stack.staffAccount.email);
    await page.getByLabel('Password').fill(stack.staffAccount.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.locator('#sign-in-error')).toHaveText(
      "We can't reach our records right now. Please try again in a minute.",
    );
    await expectNoTechnicalDetails(page);
  });
});
