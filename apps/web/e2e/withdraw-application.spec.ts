import { newAvailablePet } from './adopt-helpers';
import { expectNoSeriousViolations } from './axe';
import { expect, type TApiClient, test } from './fixtures';
import type { TStack } from './harness/stack';
import { linksOf, waitForMail } from './mail-helpers';

const STORE_EMAIL = 'hello@kindredpaws.example';

/** An application placed through the site's key; its id. */
const apply = async (api: TApiClient, petId: number, name: string, email: string) => {
  const placed = await api.orders.placeOrder({ body: { petId, adopter: { name, email } } });
  expect(placed.status).toBe(201);
  return placed.status === 201 ? placed.body.id : 0;
};

/** The private link to the application in the first email its adopter received. */
const statusLinkOf = async (stack: TStack, email: string): Promise<string> => {
  const received = await waitForMail(stack, email, /^We have your application/);
  const link = linksOf(received).find((href) => href.includes('/applications/status/'));
  expect(link, 'a private link to the application').toBeDefined();
  return link as string;
};

/**
 * An adopter changes their mind: from the page the link in their email opens, they withdraw an
 * application the store had approved, after a confirmation that says what follows. The page says
 * it is withdrawn; staff are told by email, the animal is available again, and the adopter waiting
 * behind is told it is looking for a home again.
 */
test('an adopter withdraws an approved application from its page; staff and the waiting list are told', async ({
  page,
  stack,
  api,
  staffApi,
}) => {
  test.setTimeout(90_000);
  const pet = await newAvailablePet(api, 'Changed Mind');
  const ada = `ada.withdraws.${pet.id}@example.org`;
  const bo = `bo.waits.${pet.id}@example.org`;
  const adaId = await apply(api, pet.id, 'Ada Lovelace', ada);
  await apply(api, pet.id, 'Bo Bramble', bo);
  const approved = await staffApi.orders.approveOrder({ params: { orderId: adaId } });
  expect(approved.status).toBe(200);

  await page.goto(await statusLinkOf(stack, ada));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your application');
  await expect(page.getByText('Approved by the store')).toBeVisible();

  // A stray click withdraws nothing: the link asks first, and "No, keep it" leaves it as it was.
  await page.getByRole('link', { name: 'Withdraw my application' }).click();
  const confirm = page.getByRole('region', { name: 'Withdraw your application?' });
  await expect(confirm).toContainText(`offer ${pet.name} to the people waiting`);
  await expectNoSeriousViolations(page, 'the confirmation of a withdrawal');
  await confirm.getByRole('link', { name: 'No, keep it' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByText('Approved by the store')).toBeVisible();

  await page.getByRole('link', { name: 'Withdraw my application' }).click();
  await confirm.getByRole('button', { name: 'Yes, withdraw my application' }).click();
  await expect(page.getByRole('status')).toContainText(
    'Your application is withdrawn. The store has been told',
  );
  await expect(page.getByText('Withdrawn by you')).toBeVisible();
  await expect(page.getByText('You withdrew this application')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Withdraw my application' })).toHaveCount(0);

  // Staff hear of it, with a link to the application; the adopter waiting is told the animal is
  // looking for a home again, and it is available again.
  const notice = await waitForMail(
    stack,
    STORE_EMAIL,
    new RegExp(`^Application A-${adaId} for ${pet.name} withdrawn by the adopter$`),
  );
  expect(notice.text).toContain(`${pet.name} is available again`);
  expect(linksOf(notice)).toContain(`${stack.siteUrl}/staff/applications/${adaId}`);
  await waitForMail(stack, bo, new RegExp(`^${pet.name} is looking for a home again$`));
  const after = await api.pets.listPets({ query: { id: String(pet.id) } });
  expect(after.status === 200 && after.body[0]?.status).toBe('available');
});
