import { fillApplication, newAvailablePet, ordersFor } from './adopt-helpers';
import { expectNoSeriousViolations } from './axe';
import { expect, test } from './fixtures';
import { linksOf, mailTo, waitForMail } from './mail-helpers';

/**
 * A store that asks adopters to confirm their application by email (APPLICATION_CONFIRMATION=email
 * on the API behind `confirmingSiteUrl`): after the form, the adopter is asked to check their
 * email; the application counts only once they press "Confirm my application" on the page the
 * email's link opens, in a browser that has never seen them and runs no script. Then they, and the store, hear of it
 * as of any application.
 */
test('an application counts once its adopter confirms it from the email', async ({
  page,
  browser,
  stack,
  api,
}) => {
  test.setTimeout(120_000);
  const pet = await newAvailablePet(api, 'Postmark');
  const email = `cy.${pet.id}@example.org`;

  await page.goto(`${stack.confirmingSiteUrl}/pets/${pet.id}/apply`);
  await fillApplication(page, { name: 'Cy Confirm', email });
  await page.getByRole('button', { name: 'Send application' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `Confirm your application to adopt ${pet.name}`,
  );
  await expect(page.getByRole('status')).toHaveText('One more step: check your email.');
  await expect(page.getByText(email)).toBeVisible();
  await expectNoSeriousViolations(page, 'the page asking to check your email');
  const reference = ((await page.locator('.reference').textContent()) ?? '').trim();

  // Not yet counted: the store sees an unconfirmed application and has not been written to.
  const [placed] = await ordersFor(api, pet.id);
  expect(placed?.status).toBe('unconfirmed');
  const request = await waitForMail(
    stack,
    email,
    new RegExp(`^Please confirm your application for ${pet.name}$`),
  );
  expect(
    mailTo(stack, 'hello@kindredpaws.example').map((message) => message.subject),
  ).not.toContain(`New application ${reference} for ${pet.name}`);

  // The email's link opens the application anywhere; opening it confirms nothing by itself.
  const [link] = linksOf(request).filter((href) => href.includes('/applications/status/'));
  await page.goto(link as string);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm your application');
  await expectNoSeriousViolations(page, 'the page that confirms an application');
  // It is confirmed from a browser that has never seen the adopter and runs no script, as a mail
  // app's may be: the page's form still posts as the site's own.
  const elsewhere = await browser.newContext({ javaScriptEnabled: false });
  const adopter = await elsewhere.newPage();
  await adopter.goto(link as string);
  await expect(adopter.getByRole('heading', { level: 1 })).toHaveText('Confirm your application');
  expect((await ordersFor(api, pet.id))[0]?.status).toBe('unconfirmed');

  await adopter.getByRole('button', { name: 'Confirm my application' }).click();
  await expect(adopter.getByRole('heading', { level: 1 })).toHaveText('Your application');
  await expect(adopter.getByText('Confirmed by you: application received')).toBeVisible();
  await elsewhere.close();
  expect((await ordersFor(api, pet.id))[0]?.status).toBe('placed');

  // Now it counts: the adopter's receipt and the store's notice arrive.
  await waitForMail(stack, email, new RegExp(`^We have your application for ${pet.name}$`));
  await waitForMail(
    stack,
    'hello@kindredpaws.example',
    new RegExp(`New application ${reference} for ${pet.name}`),
  );
});
