import type { Page } from '@playwright/test';
import { fillApplication, newAvailablePet } from './adopt-helpers';
import { expect, test } from './fixtures';
import { linksOf, mailTo, waitForMail } from './mail-helpers';
import { signIn } from './staff-helpers';

/**
 * The whole story of one animal, with everyone hearing back by email through a real SMTP server
 * (harness/smtp.ts): two adopters apply on the site and are told their application arrived, staff
 * are told of each; staff approve one (the other is waitlisted and told), cancel that approval (the
 * waitlisted adopter hears the animal is looking for a home again), approve the other and complete.
 * Staff also ask one adopter a question by email. Every link in those emails opens (each adopter's
 * private link to the application among them, with nothing to type), an adopter who lost the emails
 * has fresh links sent, and the back office's mailbox shows what was sent.
 */
test('two adopters, one animal: everyone hears by email at each step, and every link opens', async ({
  page,
  browser,
  stack,
  api,
}) => {
  test.setTimeout(180_000);
  const pet = await newAvailablePet(api, 'Letterbox');
  const ada = `ada.${pet.id}@example.org`;
  const bo = `bo.${pet.id}@example.org`;

  const apply = async (name: string, email: string): Promise<string> => {
    const visitor = await browser.newContext();
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(`${stack.siteUrl}/pets/${pet.id}/apply`);
    await fillApplication(visitorPage, { name, email });
    await visitorPage.getByRole('button', { name: 'Send application' }).click();
    await expect(visitorPage.getByRole('heading', { level: 1 })).toHaveText(
      /^Thank you for applying/,
    );
    const reference = ((await visitorPage.locator('.reference').textContent()) ?? '').trim();
    await visitor.close();
    return reference;
  };
  const adaReference = await apply('Ada Lovelace', ada);
  const boReference = await apply('Bo Bramble', bo);

  // Both hear their application arrived, with its reference; staff hear of each.
  const adaReceived = await waitForMail(stack, ada, new RegExp(`application for ${pet.name}$`));
  await waitForMail(stack, bo, new RegExp(`application for ${pet.name}$`));
  expect(adaReceived.text).toContain(adaReference);
  const staffNotice = await waitForMail(
    stack,
    'hello@kindredpaws.example',
    new RegExp(`New application ${adaReference} for ${pet.name}`),
  );

  // The links of an adopter's email open the animal's page on the site.
  const [petLink] = linksOf(adaReceived).filter((href) => href.includes('/pets/'));
  expect(petLink).toBe(`${stack.siteUrl}/pets/${pet.id}`);
  await page.goto(petLink as string);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(pet.name);

  // Ada's private link opens her application in a browser that has never seen her: nothing to type.
  const [statusLink] = linksOf(adaReceived).filter((href) =>
    href.includes('/applications/status/'),
  );
  const elsewhere = await browser.newContext();
  const elsewherePage = await elsewhere.newPage();
  await elsewherePage.goto(statusLink as string);
  await expect(elsewherePage.getByRole('heading', { level: 2 })).toHaveText(
    `Application ${adaReference} to adopt ${pet.name}`,
  );
  await expect(elsewherePage.getByText('Application received')).toBeVisible();
  await elsewhere.close();

  // Staff follow their email's link to the application, sign in, and approve Ada.
  await signIn(page, stack.siteUrl, stack.staffAccount);
  const [applicationLink] = linksOf(staffNotice).filter((href) => href.includes('/staff/'));
  await page.goto(applicationLink as string);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `Application ${adaReference}: ${pet.name}`,
  );
  // Staff ask Ada a question from the application's page; she has it by email, and the notes
  // keep it.
  await page.getByLabel('Ask the adopter a question').fill('Is your garden fenced?');
  await page.getByRole('button', { name: 'Email the question' }).click();
  await expect(page.getByRole('status')).toContainText(`Question sent to ${ada}`);
  await expect(page.getByRole('list', { name: 'Staff notes' })).toContainText(
    'Emailed to the adopter',
  );
  const asked = await waitForMail(stack, ada, /^A question about your application/);
  expect(asked.text).toContain('Is your garden fenced?');

  const act = async (link: string, done: string) => {
    await page.getByRole('link', { name: link }).click();
    await page.getByRole('button', { name: `Yes, ${link.toLowerCase()}` }).click();
    await expect(page.getByRole('status')).toContainText(done);
  };
  await act('Approve', 'Approved.');
  const approved = await waitForMail(stack, ada, /can go home with you/);
  expect(approved.text).toContain('12 Orchard Lane');
  await waitForMail(stack, bo, /waiting list/);

  // The approval falls through: Ada's application is cancelled, Bo hears the animal is free again.
  await act('Cancel application', 'Cancelled.');
  await waitForMail(stack, ada, /is cancelled/);
  await waitForMail(stack, bo, new RegExp(`${pet.name} is looking for a home again`));

  // Bo's turn: approved, then the animal goes home with him.
  await page.goto(`${stack.siteUrl}/staff/applications/${boReference.slice(2)}`);
  await act('Approve', 'Approved.');
  await waitForMail(stack, bo, /can go home with you/);
  await act('Complete adoption', 'Adoption completed.');
  const welcome = await waitForMail(stack, bo, new RegExp(`Welcome home, ${pet.name}`));

  // Each adopter got exactly the messages of their story, once each.
  expect(mailTo(stack, ada).map(({ subject }) => subject)).toEqual([
    `We have your application for ${pet.name}`,
    `A question about your application for ${pet.name}`,
    `Good news: ${pet.name} can go home with you`,
    `Your application for ${pet.name} is cancelled`,
  ]);
  expect(mailTo(stack, bo).map(({ subject }) => subject)).toEqual([
    `We have your application for ${pet.name}`,
    `Your application for ${pet.name}: you are on the waiting list`,
    `${pet.name} is looking for a home again`,
    `Good news: ${pet.name} can go home with you`,
    `Welcome home, ${pet.name}`,
  ]);

  // Every link of every message opens: the site's pages (200), the phone and email of the store.
  for (const message of [...mailTo(stack, ada), ...mailTo(stack, bo)]) {
    for (const href of linksOf(message)) {
      if (href.startsWith('http')) {
        const response = await page.request.get(href);
        expect(response.status(), `${href} in "${message.subject}"`).toBe(200);
      } else {
        expect(href).toMatch(/^(tel:\+?\d+|mailto:\S+@\S+)$/);
      }
    }
  }

  // Bo lost his emails: he asks for his links by address, and the one that arrives opens his
  // application, now completed.
  const lost = await browser.newContext();
  const lostPage = await lost.newPage();
  await lostPage.goto(`${stack.siteUrl}/applications/status`);
  await lostPage.getByLabel('Your email').fill(bo.toUpperCase());
  await lostPage.getByRole('button', { name: 'Email me my application links' }).click();
  await expect(lostPage.getByRole('status')).toContainText('on its way');
  const listing = await waitForMail(stack, bo, /^Your adoption applications$/);
  const [boLink] = linksOf(listing).filter((href) => href.includes('/applications/status/'));
  await lostPage.goto(boLink as string);
  await expect(lostPage.getByRole('heading', { level: 2 })).toHaveText(
    `Application ${boReference} to adopt ${pet.name}`,
  );
  await expect(lostPage.getByText(`${pet.name} has gone home with you`)).toBeVisible();
  // A link with one character changed is refused, with the way to fresh links.
  await lostPage.goto(
    `${(boLink as string).slice(0, -1)}${(boLink as string).endsWith('A') ? 'B' : 'A'}`,
  );
  await expect(lostPage.getByRole('heading', { level: 1 })).toHaveText('This link no longer works');
  await lost.close();

  // The back office's mailbox (an admin's page) shows the messages; one opens with its text and
  // its HTML.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, stack.siteUrl, stack.adminAccount);
  await openMailbox(admin, stack.siteUrl);
  const item = admin
    .getByRole('list', { name: 'Messages' })
    .getByRole('link', { name: new RegExp(`Welcome home, ${pet.name}`) });
  await expect(item).toBeVisible();
  await item.click();
  await expect(admin.getByRole('heading', { level: 1 })).toHaveText(welcome.subject);
  await expect(admin.locator('.mail-text')).toContainText(`${pet.name} is officially yours`);
  const frame = admin.frameLocator('iframe.mail-frame');
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Congratulations, Bo Bramble');
  await adminContext.close();
});

const openMailbox = async (page: Page, siteUrl: string) => {
  await page.goto(`${siteUrl}/staff/mail`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mail');
};
