import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { fillApplication, newAvailablePet } from './adopt-helpers';
import { expectNoSeriousViolations } from './axe';
import { expect, test } from './fixtures';
import { SCREENSHOTS_DIR } from './harness/paths';

const PHONE = { width: 390, height: 844 };

/** The states that need data (screenshots.spec.ts shows the pages on a fresh store). */
const screenshot = async (page: Page, name: string) => {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({
    path: join(SCREENSHOTS_DIR, `${name}-${width < 600 ? 'phone' : 'desktop'}.png`),
    fullPage: true,
  });
};

test.describe('Accessibility of adopting (axe-core, WCAG 2.2 AA)', () => {
  test('the animal page and the apply form: empty, with errors, taken meanwhile, desktop and phone', async ({
    page,
    stack,
    api,
    staffApi,
  }) => {
    test.setTimeout(90_000); // eight pages and states, each analysed by axe (35 s at load 33)
    const pet = await newAvailablePet(api, 'Axe');
    for (const viewport of [undefined, PHONE]) {
      if (viewport) {
        await page.setViewportSize(viewport);
      }
      const where = viewport ? ' on a phone' : '';
      await page.goto(`${stack.siteUrl}/pets/${pet.id}`);
      await expectNoSeriousViolations(page, `an available animal${where}`);
      await page.goto(`${stack.siteUrl}/pets/${pet.id}/apply`);
      await expectNoSeriousViolations(page, `the apply form${where}`);
      await page.getByRole('button', { name: 'Send application' }).click();
      await expect(page.locator('#adopter-name-error')).toBeVisible();
      await expectNoSeriousViolations(page, `the apply form with errors${where}`);
    }

    await fillApplication(page, { name: 'Ada', email: 'ada.axe@example.org' });
    const other = await api.orders.placeOrder({
      body: { petId: pet.id, adopter: { name: 'Else', email: 'else@example.org' } },
    });
    expect(other.status).toBe(201);
    const approved = await staffApi.orders.approveOrder({
      params: { orderId: other.status === 201 ? other.body.id : 0 },
    });
    expect(approved.status).toBe(200);
    await page.getByRole('button', { name: 'Send application' }).click();
    await expect(page.locator('main').getByRole('alert')).toContainText('set aside for another');
    await expectNoSeriousViolations(page, 'the apply form, taken meanwhile');
    await screenshot(page, 'apply-taken');

    await page.goto(`${stack.siteUrl}/pets/${pet.id}/apply`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/already spoken for/);
    await expectNoSeriousViolations(page, 'the apply page of a pending animal');
    await screenshot(page, 'apply-pending');
  });

  test('the confirmation and the status page: empty, not found, found', async ({
    page,
    stack,
    api,
  }) => {
    test.setTimeout(90_000); // seven axe analyses and three full-page screenshots, as its sibling
    const pet = await newAvailablePet(api, 'AxeStatus');
    await page.goto(`${stack.siteUrl}/pets/${pet.id}/apply`);
    await fillApplication(page, { name: 'Ada', email: 'ada.status.axe@example.org' });
    await page.getByRole('button', { name: 'Send application' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Thank you/);
    await expectNoSeriousViolations(page, 'the confirmation');
    await page.setViewportSize(PHONE);
    await expectNoSeriousViolations(page, 'the confirmation on a phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('link', { name: 'Follow your application' }).click();
    await expectNoSeriousViolations(page, 'the status page');
    await page.getByLabel('Email', { exact: true }).fill('wrong@example.org');
    await page.getByRole('button', { name: 'Show my application' }).click();
    await expect(page.locator('main').getByRole('alert')).toBeVisible();
    await expectNoSeriousViolations(page, 'the status page, not found');
    await screenshot(page, 'application-status-not-found');
    await page.getByLabel('Email', { exact: true }).fill('ada.status.axe@example.org');
    await page.getByRole('button', { name: 'Show my application' }).click();
    await expect(page.getByRole('list', { name: 'Progress' })).toBeVisible();
    await expectNoSeriousViolations(page, 'the status page with an application');
    await screenshot(page, 'application-status-found');
    await page.setViewportSize(PHONE);
    await expectNoSeriousViolations(page, 'the status page with an application, on a phone');
    await screenshot(page, 'application-status-found');
  });
});
