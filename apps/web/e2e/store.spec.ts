import { formatStoreInstant, STORE_DEFAULTS } from '@pets/contract/store';
import { newAvailablePet } from './adopt-helpers';
import { expectNoSeriousViolations } from './axe';
import { expect, test } from './fixtures';
import { E2E_STORE_TIME_ZONE } from './harness/stack';
import { ScriptedVisitor } from './scripted-visitor';
import { signIn } from './staff-helpers';

/** The hour and minute of `instant` on New York's clock, worked out without the site's formatter. */
const newYorkTime = (instant: string): string =>
  new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(instant));

test.describe('The store, configurable', () => {
  test('"How adoption works" gives the steps, the fee and what to bring, from the header, the footer and the apply page', async ({
    page,
    stack,
    api,
  }) => {
    test.setTimeout(60_000); // three pages analysed by axe
    await page.goto(stack.siteUrl);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'How adoption works' })
      .click();
    await expect(page).toHaveURL(`${stack.siteUrl}/how-adoption-works`);
    await expect(page).toHaveTitle(`How adoption works · ${STORE_DEFAULTS.name}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('How adoption works');
    await expect(
      page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'How adoption works' }),
    ).toHaveAttribute('aria-current', 'page');
    const steps = page.getByRole('region', { name: 'The steps' }).getByRole('listitem');
    await expect(steps).toHaveCount(4);
    await expect(steps.nth(0)).toContainText('You apply.');
    await expect(steps.nth(1)).toContainText('Several people may apply for the same animal');
    await expect(steps.nth(1)).toContainText('tell everyone by email');
    await expect(steps.nth(2)).toContainText('You visit.');
    await expect(steps.nth(3)).toContainText('You take them home.');
    await expect(page.getByRole('region', { name: 'The fee' })).toContainText(
      STORE_DEFAULTS.adoptionFee,
    );
    await expect(
      page.getByRole('region', { name: 'What to bring' }).getByRole('listitem'),
    ).toHaveCount(5);
    await expectNoSeriousViolations(page, 'How adoption works');

    // The store's contact, where a visitor looks for it: tel:, mailto: and a map search.
    const visit = page.getByRole('region', { name: 'Questions? Talk to us' });
    await expect(visit.getByRole('link', { name: STORE_DEFAULTS.phone })).toHaveAttribute(
      'href',
      'tel:01614960123',
    );
    await expect(visit.getByRole('link', { name: STORE_DEFAULTS.email })).toHaveAttribute(
      'href',
      `mailto:${STORE_DEFAULTS.email}`,
    );
    await expect(visit.getByRole('link', { name: /See it on a map/ })).toHaveAttribute(
      'href',
      'https://www.openstreetmap.org/search?query=12+Orchard+Lane%2C+Millbrook%2C+MB1+2PA',
    );
    const footer = page.locator('footer');
    await expect(footer.getByRole('link', { name: STORE_DEFAULTS.phone })).toHaveAttribute(
      'href',
      /^tel:/,
    );
    await expect(footer.getByRole('link', { name: STORE_DEFAULTS.email })).toHaveAttribute(
      'href',
      /^mailto:/,
    );
    await expect(footer.getByRole('link', { name: /12 Orchard Lane/ })).toHaveAttribute(
      'href',
      /^https:\/\/www\.openstreetmap\.org\/search\?query=/,
    );

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expectNoSeriousViolations(page, 'How adoption works on a phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The apply page points to it too.
    const pet = await newAvailablePet(api, 'Howto');
    await page.goto(`${stack.siteUrl}/pets/${pet.id}/apply`);
    await page.getByRole('main').getByRole('link', { name: 'How adoption works' }).click();
    await expect(page).toHaveURL(`${stack.siteUrl}/how-adoption-works`);
    await page.locator('footer').getByRole('link', { name: 'How adoption works' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('How adoption works');
  });

  test("dates show on the store's clock (STORE_TIME_ZONE), for staff and for the adopter", async ({
    page,
    stack,
    api,
  }) => {
    expect(E2E_STORE_TIME_ZONE).toBe('America/New_York');
    const pet = await newAvailablePet(api, 'Clock');
    const placed = await api.orders.placeOrder({
      body: { petId: pet.id, adopter: { name: 'Grace Hopper', email: 'grace@example.org' } },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(placed.status).toBe(201);
    const order = placed.status === 201 ? placed.body : undefined;
    const placedAt = order?.placedAt ?? '';
    const expected = formatStoreInstant(placedAt, E2E_STORE_TIME_ZONE);
    // The site's formatter agrees with a plain reading of New York's clock, zone named.
    expect(expected).toContain(newYorkTime(placedAt));
    expect(expected).toMatch(/ E[SD]T$/);

    await signIn(page, stack.siteUrl, stack.staffAccount);
    await page.goto(`${stack.siteUrl}/staff/applications/${order?.id}`);
    const received = page.locator(`.lead time[datetime="${placedAt}"]`);
    await expect(received).toHaveText(expected);
    await expect(page.locator('.history time').first()).toHaveText(expected);
    await page.goto(`${stack.siteUrl}/staff/applications`);
    await expect(page.locator(`time[datetime="${placedAt}"]`).first()).toHaveText(expected);
    await expect(page.getByRole('main')).not.toContainText(' UTC');

    // The adopter's status page, on a fresh visitor's browser.
    await page.context().clearCookies();
    await page.goto(`${stack.siteUrl}/applications/status?reference=A-${order?.id}`);
    await page.getByLabel('Email', { exact: true }).fill('grace@example.org');
    await page.getByRole('button', { name: 'Show my application' }).click();
    await expect(page.locator('.steps time').first()).toHaveText(
      formatStoreInstant(placedAt, E2E_STORE_TIME_ZONE, { month: 'long' }),
    );
  });

  test('"How adoption works" is counted against the visitor like every page', async ({ stack }) => {
    // An address range of its own, so no other spec's visitor shares its count.
    const visitor = new ScriptedVisitor(
      stack.guardedSiteUrl,
      `127.0.201.${2 + Math.floor(Math.random() * 240)}`,
    );
    const statuses: number[] = [];
    let limited: { body: string; retryAfter: unknown } | undefined;
    // The guarded site keeps the default page limit (300 a minute per visitor).
    for (let batch = 0; batch < 16 && !limited; batch += 1) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => visitor.request('/how-adoption-works')),
      );
      statuses.push(...answers.map((answer) => answer.status));
      const tooMany = answers.find((answer) => answer.status === 429);
      if (tooMany) {
        limited = { body: tooMany.body, retryAfter: tooMany.headers['retry-after'] };
      }
    }
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(limited, 'a 429 after the page limit').toBeDefined();
    expect(limited?.body).toContain("We're getting a lot of visits");
    expect(limited?.body).toContain(`· ${STORE_DEFAULTS.name}</title>`);
    expect(Number(limited?.retryAfter)).toBeGreaterThan(0);
  });
});
