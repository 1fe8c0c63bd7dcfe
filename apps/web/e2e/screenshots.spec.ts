import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ARTIFACTS_DIR, SCREENSHOTS_DIR } from './harness/paths';
import { apiPages } from './helpers';

const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/** Cumulative layout shift of the page so far (the Layout Instability API). */
const layoutShift = (page: Page): Promise<number> =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
          })[]) {
            if (!entry.hadRecentInput) {
              total += entry.value;
            }
          }
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 300);
      }),
  );

type TMeasurement = {
  page: string;
  viewport: string;
  status: number | undefined;
  htmlKiB: number;
  scriptKiB: number;
  layoutShift: number;
  loadMs: number;
};

test('screenshots of the main pages at desktop and phone width, without layout shift', async ({
  page,
  stack,
  api,
}) => {
  test.setTimeout(90_000);
  const [pets] = await apiPages(api, stack.apiUrl, { limit: 1 }, 1);
  const pages: [string, string][] = [
    ['browse', `${stack.siteUrl}/`],
    ['browse-pending', `${stack.siteUrl}/?status=pending`],
    ['animal', `${stack.siteUrl}/pets/${pets?.[0]?.id}`],
    ['add-animal', `${stack.siteUrl}/pets/new`],
    ['not-found', `${stack.siteUrl}/pets/987654321`],
    ['rate-limited', stack.limitedSiteUrl],
    ['unreachable', stack.offlineSiteUrl],
  ];
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const measurements: TMeasurement[] = [];

  for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    for (const [name, url] of pages) {
      let scriptBytes = 0;
      const onResponse = async (response: import('@playwright/test').Response) => {
        if (response.request().resourceType() === 'script') {
          scriptBytes += (await response.body().catch(() => Buffer.alloc(0))).length;
        }
      };
      page.on('response', onResponse);
      const started = Date.now();
      const response = await page.goto(url, { waitUntil: 'load' });
      const loadMs = Date.now() - started;
      const html = (await response?.body())?.length ?? 0;
      await page.waitForLoadState('networkidle');
      page.off('response', onResponse);
      const shift = await layoutShift(page);
      expect(shift, `layout shift on ${name} (${viewportName})`).toBeLessThan(0.01);
      await page.screenshot({
        path: join(SCREENSHOTS_DIR, `${name}-${viewportName}.png`),
        fullPage: true,
      });
      measurements.push({
        page: name,
        viewport: viewportName,
        status: response?.status(),
        htmlKiB: Math.round(html / 102.4) / 10,
        scriptKiB: Math.round(scriptBytes / 102.4) / 10,
        layoutShift: Math.round(shift * 10_000) / 10_000,
        loadMs,
      });
    }
    // The add form with its errors showing.
    await page.goto(`${stack.siteUrl}/pets/new`);
    await page.getByRole('button', { name: 'Add animal' }).click();
    await expect(page.locator('#pet-name-error')).toBeVisible();
    await page.screenshot({
      path: join(SCREENSHOTS_DIR, `add-animal-errors-${viewportName}.png`),
      fullPage: true,
    });
  }
  writeFileSync(
    join(ARTIFACTS_DIR, 'measurements.json'),
    `${JSON.stringify(measurements, null, 2)}\n`,
  );
  process.stdout.write(
    `${measurements
      .map(
        (m) =>
          `[measure] ${m.page} (${m.viewport}): HTTP ${m.status}, HTML ${m.htmlKiB} KiB, ` +
          `scripts ${m.scriptKiB} KiB, layout shift ${m.layoutShift}, load ${m.loadMs} ms`,
      )
      .join('\n')}\n`,
  );
});
