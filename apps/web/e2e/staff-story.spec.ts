import { expect, test } from './fixtures';
import { categories, uniqueName } from './helpers';
import { signIn } from './staff-helpers';

/**
 * The whole story, as the issue tells it: an adopter applies for an animal, the animal shows as
 * pending, a staff member signs in, approves, completes, and the animal shows as adopted on the
 * public site. The adopter's side goes through the API's placeOrder with a partner key (the site's
 * own), as the adopt form would; the lead swaps in the form where both branches meet.
 */
test('an animal goes from available to adopted: adopter applies, staff approve and complete', async ({
  page,
  browser,
  stack,
  api,
}) => {
  const category = (await categories(api))[0];
  const name = uniqueName('Story');
  const created = await api.pets.createPet({
    body: { name, categoryId: category?.id ?? 1, status: 'available' },
  });
  expect(created.status).toBe(201);
  const petId = created.status === 201 ? created.body.id : 0;

  // The adopter applies.
  const placed = await api.orders.placeOrder({
    body: {
      petId,
      adopter: { name: 'Ada Lovelace', email: 'ada@example.org', phone: '+44 20 7946 0958' },
      message: 'We have a garden and a lot of time.',
    },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(placed.status).toBe(201);
  const orderId = placed.status === 201 ? placed.body.id : 0;

  // The public site shows the animal as pending.
  const visitor = await browser.newContext();
  const publicPage = await visitor.newPage();
  await publicPage.goto(`${stack.siteUrl}/pets/${petId}`);
  await expect(publicPage.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(publicPage.locator('dl')).toContainText('StatusPending adoption');

  // Staff sign in and find the application first in the queue of new ones.
  await signIn(page, stack.siteUrl, stack.staffApiKey);
  await page.getByLabel('Status').selectOption({ label: 'New' });
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/status=placed/);
  const first = page.getByRole('list', { name: 'Applications' }).getByRole('listitem').first();
  await expect(first).toContainText(`Ada Lovelace for ${name}`);
  await expect(first).toContainText('New');
  await first.getByRole('link').click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `Application #${orderId}: ${name}`,
  );
  await expect(page.getByText('ada@example.org')).toBeVisible();
  await expect(page.getByText('+44 20 7946 0958')).toBeVisible();
  await expect(page.getByText('We have a garden and a lot of time.')).toBeVisible();
  await expect(page.getByRole('list').filter({ hasText: 'Application received' })).toBeVisible();

  // Approve, with a confirmation step.
  await page.getByRole('link', { name: 'Approve' }).click();
  await expect(page.getByRole('heading', { name: /Approve this application\?/ })).toBeVisible();
  await page.getByRole('button', { name: 'Yes, approve' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'Approved. The animal stays set aside for this adopter.',
  );
  await expect(page.getByText('Approved', { exact: true }).first()).toBeVisible();

  // Complete, confirmed.
  await page.getByRole('link', { name: 'Complete adoption' }).click();
  await page.getByRole('button', { name: 'Yes, complete adoption' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'Adoption completed. The animal is now shown as adopted.',
  );
  const history = page.locator('ol.history li');
  await expect(history).toHaveCount(3);
  await expect(history.nth(0)).toContainText('Application received');
  await expect(history.nth(1)).toContainText('Approved');
  await expect(history.nth(2)).toContainText('Adoption completed');
  // Nothing more to do with a completed application.
  await expect(page.getByRole('link', { name: 'Cancel application' })).toHaveCount(0);

  // The API recorded who did what: the adopter's side (the site's key) placed it, the staff
  // member's own key approved and completed it.
  const order = await api.orders.getOrder({ params: { orderId } });
  expect(order.status).toBe(200);
  const staffStart = stack.staffApiKey.slice(0, stack.staffApiKey.indexOf('_', 5) + 5);
  const webStart = stack.webApiKey.slice(0, stack.webApiKey.indexOf('_', 5) + 5);
  expect(order.status === 200 && order.body.history.map(({ to, by }) => `${to} ${by}`)).toEqual([
    `placed ${webStart}`,
    `approved ${staffStart}`,
    `completed ${staffStart}`,
  ]);

  // The public site shows the animal as adopted.
  await publicPage.reload();
  await expect(publicPage.locator('dl')).toContainText('StatusAdopted');
  await visitor.close();
});

test('a confirmation sent twice is one change: the retry gets the first answer (Idempotency-Key)', async ({
  page,
  stack,
  api,
}) => {
  const [category] = await categories(api);
  const created = await api.pets.createPet({
    body: { name: uniqueName('Twice'), categoryId: category?.id ?? 1, status: 'available' },
  });
  const petId = created.status === 201 ? created.body.id : 0;
  const placed = await api.orders.placeOrder({
    body: { petId, adopter: { name: 'Sent Twice', email: 'twice@example.org' } },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  const orderId = placed.status === 201 ? placed.body.id : 0;
  await signIn(page, stack.siteUrl, stack.staffApiKey);
  const confirmUrl = `${stack.siteUrl}/staff/applications/${orderId}?confirm=approve`;
  await page.goto(confirmUrl);
  // The form exactly as the browser would send it without JavaScript (React renders the server
  // action's id as a hidden field), posted twice with the session cookie: a resent form.
  const fields = await page
    .locator('form.confirm__actions input')
    .evaluateAll((inputs) =>
      (inputs as HTMLInputElement[]).map((input) => [input.name, input.value] as const),
    );
  expect(fields.map(([name]) => name)).toEqual(
    expect.arrayContaining(['orderId', 'action', 'idempotencyKey']),
  );
  const multipart = Object.fromEntries(fields);
  const first = await page.request.post(confirmUrl, { multipart, maxRedirects: 0 });
  const second = await page.request.post(confirmUrl, { multipart, maxRedirects: 0 });
  // Both answered as the first: approved (a second approval without the key would be a 409).
  for (const response of [first, second]) {
    expect(response.status()).toBe(303);
    expect(response.headers().location).toMatch(/\?done=approve$/);
  }
  const order = await api.orders.getOrder({ params: { orderId } });
  expect(order.status === 200 && order.body.history.map(({ to }) => to)).toEqual([
    'placed',
    'approved',
  ]);
});
