import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { fillApplication, newAvailablePet } from './adopt-helpers';
import {
  addEndpointIn,
  createKeyIn,
  fillSignUp,
  newDeveloper,
  signedUpDeveloper,
} from './developer-helpers';
import type { TApiClient } from './fixtures';
import { expect, test } from './fixtures';
import { ARTIFACTS_DIR, SCREENSHOTS_DIR } from './harness/paths';
import { apiPages, categories, uniqueName } from './helpers';
import { addPhotoThroughApi, makePhoto } from './photo-helpers';
import { signIn } from './staff-helpers';

/** An animal with a full profile and three photos made at test time, for the pages that show them. */
const animalWithPhotos = async (api: TApiClient) => {
  const category = (await categories(api))[0];
  const created = await api.pets.createPet({
    body: {
      name: uniqueName('Hazelnut'),
      categoryId: category?.id ?? 1,
      status: 'available',
      sex: 'female',
      age: 'young',
      size: 'medium',
      breed: 'Beagle mix',
      arrivedAt: '2026-03-03',
      description:
        'Hazelnut is a gentle, curious dog who loves long walks and naps in the sun.\n\n' +
        'She gets on well with children and other dogs, and would love a garden.',
    },
  });
  if (created.status !== 201) {
    throw new Error(`createPet answered ${created.status}`);
  }
  for (const colours of [
    { background: '#d9a066', ink: '#5b3a1c' },
    { background: '#a9c7a0', ink: '#3d4f2a', width: 720, height: 960 },
    { background: '#c9b6d9', ink: '#4a3563' },
  ]) {
    await addPhotoThroughApi(api, created.body.id, await makePhoto(colours));
  }
  return created.body;
};

/** An application to show in the back office, placed through the API with the site's key. */
const placeOrderForScreenshots = async (api: TApiClient) => {
  const category = (await categories(api))[0];
  const created = await api.pets.createPet({
    body: { name: uniqueName('Pumpkin'), categoryId: category?.id ?? 1, status: 'available' },
  });
  if (created.status !== 201) {
    throw new Error(`createPet answered ${created.status}`);
  }
  const placed = await api.orders.placeOrder({
    body: {
      petId: created.body.id,
      adopter: { name: 'Mary Somerville', email: 'mary@example.org', phone: '+44 131 496 0000' },
      message: 'A quiet flat near the park; I work from home.',
    },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  if (placed.status !== 201) {
    throw new Error(`placeOrder answered ${placed.status}`);
  }
  return placed.body;
};

const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/**
 * Cumulative layout shift of the page so far (the Layout Instability API), and what moved: each
 * shifted element (tag and class) with its box before and after, for the failure's message.
 */
const layoutShift = (page: Page): Promise<{ total: number; moved: string[] }> =>
  page.evaluate(
    () =>
      new Promise<{ total: number; moved: string[] }>((resolve) => {
        let total = 0;
        const moved: string[] = [];
        const box = (rect: DOMRectReadOnly) =>
          `${Math.round(rect.x)},${Math.round(rect.y)} ${Math.round(rect.width)}x${Math.round(rect.height)}`;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
            sources?: {
              node?: Node;
              previousRect: DOMRectReadOnly;
              currentRect: DOMRectReadOnly;
            }[];
          })[]) {
            if (!entry.hadRecentInput) {
              total += entry.value;
              for (const source of entry.sources ?? []) {
                const node = source.node as HTMLElement | undefined;
                moved.push(
                  `${node?.tagName?.toLowerCase() ?? '?'}.${node?.className ?? ''} at ${Math.round(entry.startTime)} ms: ${box(source.previousRect)} -> ${box(source.currentRect)}`,
                );
              }
            }
          }
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve({ total, moved }), 300);
      }),
  );

type TMeasurement = {
  page: string;
  viewport: string;
  status: number | undefined;
  /** Bytes over the wire (compressed), from a cold cache. */
  htmlKiB: number;
  scriptKiB: number;
  totalKiB: number;
  layoutShift: number;
  /** Navigation start to the load event. */
  loadMs: number;
};

const kib = (bytes: number) => Math.round(bytes / 102.4) / 10;

test('screenshots of the main pages at desktop and phone width, without layout shift', async ({
  browser,
  stack,
  api,
}) => {
  // About 50 pages and states at two widths, each in a cold context: 8 min in CI beside the API's
  // suite (27 Nov), when the timeout was 8 min for half as many pages.
  test.setTimeout(900_000);
  const [pets] = await apiPages(api, stack.apiUrl, { limit: 1 }, 1);
  // The back office: one signed-in session, reused by each staff page's fresh context, and an
  // application to show.
  const order = await placeOrderForScreenshots(api);
  const photographed = await animalWithPhotos(api);
  const signedIn = await browser.newContext();
  await signIn(await signedIn.newPage(), stack.siteUrl, stack.staffAccount);
  const staffState = await signedIn.storageState();
  await signedIn.close();
  const adminSignedIn = await browser.newContext();
  await signIn(await adminSignedIn.newPage(), stack.siteUrl, stack.adminAccount);
  const adminState = await adminSignedIn.storageState();
  await adminSignedIn.close();
  // An adopter who has just applied: the confirmation shows only the application their own form
  // placed (a cookie set by the form's redirect), for an animal made for it.
  const applied = await browser.newContext();
  const applicant = await applied.newPage();
  const appliedFor = await newAvailablePet(api, 'Confirmed');
  await applicant.goto(`${stack.siteUrl}/pets/${appliedFor.id}/apply`);
  await fillApplication(applicant, { name: 'Dorothy Hodgkin', email: 'dorothy@example.org' });
  await applicant.getByRole('button', { name: 'Send application' }).click();
  await applicant.waitForURL(`${stack.siteUrl}/applications/sent`);
  const applicantState = await applied.storageState();
  await applied.close();
  // An animal still available once that order is placed, for the adopter's pages.
  const [[available] = []] = await apiPages(
    api,
    stack.apiUrl,
    { status: 'available', limit: 1 },
    1,
  );
  // The developer portal: a developer whose address is not confirmed yet, and one with a key.
  const unconfirmed = await browser.newContext();
  const waiting = await unconfirmed.newPage();
  await fillSignUp(waiting, stack.siteUrl, newDeveloper());
  await expect(waiting.getByRole('heading', { level: 1 })).toHaveText('Check your email');
  const unconfirmedState = await unconfirmed.storageState();
  await unconfirmed.close();
  const developerContext = await browser.newContext();
  const developerPage = await developerContext.newPage();
  await signedUpDeveloper(developerPage, stack);
  const shelterKey = await createKeyIn(developerPage, stack.siteUrl, 'Shelter app');
  // A few requests for the usage chart: successes and a not-found.
  for (const path of ['/pets?limit=1', '/pets?limit=1', '/pets?limit=1', '/pets/987654321']) {
    await fetch(`${stack.apiUrl}${path}`, { headers: { authorization: `Bearer ${shelterKey}` } });
  }
  await createKeyIn(developerPage, stack.siteUrl, 'Reporting', 'Live');
  // A plan request waiting for staff: the developer's plan page and the back office's queue.
  await developerPage.goto(`${stack.siteUrl}/developers/plan`);
  await developerPage.getByLabel('Enterprise', { exact: true }).check();
  await developerPage
    .getByLabel('Message (optional)')
    .fill('Our adoption app serves 40 shelters; we expect about 2 million requests a day.');
  await developerPage.getByRole('button', { name: 'Ask for this plan' }).click();
  await expect(
    developerPage.getByRole('heading', { name: 'Waiting for our answer' }),
  ).toBeVisible();
  await developerPage.goto(`${stack.siteUrl}/developers/keys`);
  const keyPath = (
    (await developerPage.getByRole('link', { name: 'Roll Shelter app' }).getAttribute('href')) ?? ''
  ).replace(/\/roll$/, '');
  const endpointPath = await addEndpointIn(developerPage, stack.siteUrl);
  const developerState = await developerContext.storageState();
  await developerContext.close();
  // A seeded animal with the details adopters ask about (db/src/seed.ts): the "Good with" block.
  const [[described] = []] = await apiPages(api, stack.apiUrl, { name: 'Luna', limit: 1 }, 1);
  const pages: [
    string,
    string,
    (boolean | 'applicant' | 'admin' | 'developer' | 'unconfirmed')?,
  ][] = [
    ['browse', `${stack.siteUrl}/`],
    ['browse-pending', `${stack.siteUrl}/?status=pending`],
    ['browse-filtered', `${stack.siteUrl}/?status=all&sex=female&age=young`],
    ['browse-search', `${stack.siteUrl}/?name=${encodeURIComponent(photographed.name)}`],
    ['match', `${stack.siteUrl}/match`],
    ['match-answered', `${stack.siteUrl}/match?home=flat&children=young&pets=cats&time=part`],
    ['animal', `${stack.siteUrl}/pets/${pets?.[0]?.id}`],
    ['animal-available', `${stack.siteUrl}/pets/${available?.id}`],
    ['animal-photos', `${stack.siteUrl}/pets/${photographed.id}`],
    ['animal-details', `${stack.siteUrl}/pets/${described?.id}`],
    // Adopting.
    ['apply', `${stack.siteUrl}/pets/${available?.id}/apply`],
    ['application-sent', `${stack.siteUrl}/applications/sent`, 'applicant'],
    ['application-status', `${stack.siteUrl}/applications/status?reference=A-1`],
    ['not-found', `${stack.siteUrl}/pets/987654321`],
    ['rate-limited', stack.limitedSiteUrl],
    ['unreachable', stack.offlineSiteUrl],
    ['staff-sign-in', `${stack.siteUrl}/staff/sign-in`],
    ['staff-applications', `${stack.siteUrl}/staff/applications`, true],
    ['staff-application', `${stack.siteUrl}/staff/applications/${order.id}`, true],
    [
      'staff-application-confirm',
      `${stack.siteUrl}/staff/applications/${order.id}?confirm=cancel`,
      true,
    ],
    ['staff-animals', `${stack.siteUrl}/staff/animals`, true],
    ['add-animal', `${stack.siteUrl}/staff/animals/new`, true],
    ['staff-edit-animal', `${stack.siteUrl}/staff/animals/${order.petId}`, true],
    ['staff-edit-animal-photos', `${stack.siteUrl}/staff/animals/${photographed.id}`, true],
    // People.
    ['staff-account', `${stack.siteUrl}/staff/account`, true],
    ['staff-reset', `${stack.siteUrl}/staff/reset`],
    ['staff-invite', `${stack.siteUrl}/staff/invite/1.zzzz.AAAAAAAAAAAAAAAAAAAAAA`],
    ['staff-team', `${stack.siteUrl}/staff/team`, 'admin'],
    ['staff-audit', `${stack.siteUrl}/staff/audit`, 'admin'],
    [
      'staff-audit-animal',
      `${stack.siteUrl}/staff/audit?targetType=pet&targetId=${order.petId}`,
      'admin',
    ],
    ['staff-plans', `${stack.siteUrl}/staff/plans`, true],
    // The developer portal.
    ['developer-sign-up', `${stack.siteUrl}/developers/sign-up`],
    ['developer-sign-in', `${stack.siteUrl}/developers/sign-in`],
    ['developer-verify', `${stack.siteUrl}/developers/verify/1.zzzz.AAAAAAAAAAAAAAAAAAAAAA`],
    ['developer-reset', `${stack.siteUrl}/developers/reset`],
    ['developer-check-email', `${stack.siteUrl}/developers`, 'unconfirmed'],
    ['developer-dashboard', `${stack.siteUrl}/developers`, 'developer'],
    ['developer-keys', `${stack.siteUrl}/developers/keys`, 'developer'],
    ['developer-key-new', `${stack.siteUrl}/developers/keys/new`, 'developer'],
    ['developer-key-roll', `${stack.siteUrl}${keyPath}/roll`, 'developer'],
    ['developer-key-revoke', `${stack.siteUrl}${keyPath}/revoke`, 'developer'],
    ['developer-usage', `${stack.siteUrl}/developers/usage`, 'developer'],
    ['developer-webhooks', `${stack.siteUrl}/developers/webhooks`, 'developer'],
    ['developer-webhook-new', `${stack.siteUrl}/developers/webhooks/new`, 'developer'],
    ['developer-webhook', `${stack.siteUrl}${endpointPath}`, 'developer'],
    ['developer-plan', `${stack.siteUrl}/developers/plan`, 'developer'],
    ['developer-account', `${stack.siteUrl}/developers/account`, 'developer'],
  ];
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const measurements: TMeasurement[] = [];

  for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
    for (const [name, url, who] of pages) {
      // A new context per page: a cold cache, as for a first-time visitor.
      const visit = async () => {
        const context = await browser.newContext({
          viewport,
          ...(who === true ? { storageState: staffState } : {}),
          ...(who === 'applicant' ? { storageState: applicantState } : {}),
          ...(who === 'admin' ? { storageState: adminState } : {}),
          ...(who === 'developer' ? { storageState: developerState } : {}),
          ...(who === 'unconfirmed' ? { storageState: unconfirmedState } : {}),
        });
        const page = await context.newPage();
        const sizes: Promise<{ type: string; bytes: number }>[] = [];
        page.on('requestfinished', (request) => {
          sizes.push(
            request.sizes().then(({ responseBodySize }) => ({
              type: request.resourceType(),
              bytes: responseBodySize,
            })),
          );
        });
        const response = await page.goto(url, { waitUntil: 'load' });
        await page.waitForLoadState('networkidle');
        const loadMs = await page.evaluate(() => {
          const [navigation] = performance.getEntriesByType(
            'navigation',
          ) as PerformanceNavigationTiming[];
          return Math.round(navigation?.loadEventStart ?? 0);
        });
        return { context, page, sizes, response, loadMs, ...(await layoutShift(page)) };
      };
      let visited = await visit();
      if (visited.total >= 0.01) {
        // A shift the page really has comes back on every cold visit (an image without its size, a
        // late font, content added after hydration). CI twice saw one that did not: a footer that
        // moved while the machine ran the API's suite and the benchmark beside this one, and that no
        // idle run, CPU throttling or slowed network reproduces. So a shift is measured once more
        // in a fresh context, and only one that repeats fails; the first is kept in the log.
        process.stdout.write(
          `[measure] ${name} (${viewportName}): layout shift ${visited.total} on the first visit (${visited.moved.join('; ')}); measuring again\n`,
        );
        await visited.context.close();
        visited = await visit();
      }
      const { context, page, sizes, response, loadMs, total: shift, moved } = visited;
      expect(shift, `layout shift on ${name} (${viewportName}): ${moved.join('; ')}`).toBeLessThan(
        0.01,
      );
      await page.screenshot({
        path: join(SCREENSHOTS_DIR, `${name}-${viewportName}.png`),
        fullPage: true,
      });
      const resources = await Promise.all(sizes);
      const sum = (type?: string) =>
        resources
          .filter((resource) => type === undefined || resource.type === type)
          .reduce((total, resource) => total + resource.bytes, 0);
      measurements.push({
        page: name,
        viewport: viewportName,
        status: response?.status(),
        htmlKiB: kib(sum('document')),
        scriptKiB: kib(sum('script')),
        totalKiB: kib(sum()),
        layoutShift: Math.round(shift * 10_000) / 10_000,
        loadMs,
      });
      if (name === 'developer-key-new') {
        // The key shown once.
        await page.getByLabel('Name').fill('Screenshot app');
        await page.getByRole('button', { name: 'Create the key' }).click();
        await expect(page.getByText("You won't see this key again.")).toBeVisible();
        await page.screenshot({
          path: join(SCREENSHOTS_DIR, `developer-key-shown-${viewportName}.png`),
          fullPage: true,
        });
      }
      if (name === 'add-animal') {
        // The form with its errors showing.
        await page.getByRole('button', { name: 'Add animal' }).click();
        await expect(page.locator('#pet-name-error')).toBeVisible();
        await page.screenshot({
          path: join(SCREENSHOTS_DIR, `add-animal-errors-${viewportName}.png`),
          fullPage: true,
        });
      }
      if (name === 'browse' && viewportName === 'phone') {
        // The filters, opened from their one control.
        await page.locator('.filters__toggle').click();
        await expect(page.getByLabel('Category')).toBeVisible();
        await page.screenshot({
          path: join(SCREENSHOTS_DIR, `browse-filters-open-${viewportName}.png`),
          fullPage: true,
        });
      }
      if (name === 'staff-edit-animal-photos') {
        // A photo chosen, previewed before it is sent.
        const photo = await makePhoto({ background: '#f0d7a8' });
        await page.getByLabel('Add a photo').setInputFiles({
          name: photo.name,
          mimeType: photo.mimeType,
          buffer: photo.buffer,
        });
        await expect(page.getByRole('img', { name: `Preview of ${photo.name}` })).toBeVisible();
        await page.screenshot({
          path: join(SCREENSHOTS_DIR, `staff-photo-preview-${viewportName}.png`),
          fullPage: true,
        });
      }
      if (name === 'apply') {
        // The apply form with its errors showing.
        await page.getByRole('button', { name: 'Send application' }).click();
        await expect(page.locator('#adopter-name-error')).toBeVisible();
        await page.screenshot({
          path: join(SCREENSHOTS_DIR, `apply-errors-${viewportName}.png`),
          fullPage: true,
        });
      }
      if (name === 'staff-sign-in') {
        // A refused sign-in.
        // An address no account has: refused, and nobody's account counts a failure.
        await page.getByLabel('Email').fill(`nobody-${Date.now()}@store.test`);
        await page.getByLabel('Password').fill('not a password of anyone');
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await expect(page.locator('#sign-in-error')).toBeVisible();
        await page.screenshot({
          path: join(SCREENSHOTS_DIR, `staff-sign-in-refused-${viewportName}.png`),
          fullPage: true,
        });
      }
      await context.close();
    }
  }
  writeFileSync(
    join(ARTIFACTS_DIR, 'measurements.json'),
    `${JSON.stringify(measurements, null, 2)}\n`,
  );
  process.stdout.write(
    `${measurements
      .map(
        (m) =>
          `[measure] ${m.page} (${m.viewport}): HTTP ${m.status}, over the wire ${m.totalKiB} KiB ` +
          `(HTML ${m.htmlKiB}, scripts ${m.scriptKiB}), layout shift ${m.layoutShift}, load ${m.loadMs} ms`,
      )
      .join('\n')}\n`,
  );
});
