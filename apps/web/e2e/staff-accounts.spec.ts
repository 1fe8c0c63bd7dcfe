import { randomBytes } from 'node:crypto';
import type { Browser } from '@playwright/test';
import { fillApplication } from './adopt-helpers';
import { expect, test } from './fixtures';
import type { TStack } from './harness/stack';
import { categories, uniqueName } from './helpers';
import { linksOf, waitForMail } from './mail-helpers';
import { newVisitorAddress, ScriptedVisitor } from './scripted-visitor';
import { fillSignIn, SESSION_COOKIE, signIn } from './staff-helpers';

/**
 * People, not keys (the staff story): an admin invites Anna by email; she joins with her
 * name and a password, approves an application, and the history says so by name; sign-out,
 * "sign out everywhere" and a password reset end sessions for good; a deactivated account and a
 * guesser are kept out, while everyone else still signs in. Real API, real SMTP, Chromium.
 */

const newPassword = () => `pw-${randomBytes(12).toString('base64url')}`;

/** The path of the first link in the email that goes to `/staff/<purpose>/`. */
const staffLink = (links: string[], purpose: 'invite' | 'reset'): string => {
  const link = links.find((href) => href.includes(`/staff/${purpose}/`));
  expect(link, `a /staff/${purpose}/ link`).toBeDefined();
  return new URL(link as string).pathname;
};

/** Anna: invited by the admin through /staff/team, joined through the email's link. */
const inviteAndJoin = async (
  browser: Browser,
  stack: TStack,
  person: { email: string; name: string; password: string },
  role: 'staff' | 'admin' = 'staff',
) => {
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, stack.siteUrl, stack.adminAccount);
  await admin
    .getByRole('navigation', { name: 'Staff' })
    .getByRole('link', { name: 'Team' })
    .click();
  await expect(admin.getByRole('heading', { level: 1 })).toHaveText('Team');
  await admin.getByLabel('Email').fill(person.email);
  await admin.getByLabel('Name', { exact: true }).fill('Anna');
  await admin.getByLabel('Role').selectOption(role);
  await admin.getByRole('button', { name: 'Send the invitation' }).click();
  await expect(admin.getByRole('status')).toContainText(`on its way to ${person.email}`);
  await expect(admin.getByRole('list', { name: 'Team' })).toContainText(person.email);
  await adminContext.close();

  const invite = await waitForMail(stack, person.email, /invited to the .* back office/);
  const joinContext = await browser.newContext();
  const join = await joinContext.newPage();
  await join.goto(`${stack.siteUrl}${staffLink(linksOf(invite), 'invite')}`);
  await expect(join.getByRole('heading', { level: 1 })).toHaveText('Join the team');
  await join.getByLabel('Your name').fill(person.name);
  await join.getByLabel('New password', { exact: true }).fill(person.password);
  await join.getByLabel('New password again').fill(person.password);
  await join.getByRole('button', { name: 'Join the team' }).click();
  await expect(join).toHaveURL(/\/staff\/sign-in\?reset=1$/);
  // The invitation is used: its link fails now.
  await join.goto(`${stack.siteUrl}${staffLink(linksOf(invite), 'invite')}`);
  await join.getByLabel('Your name').fill('Someone else');
  await join.getByLabel('New password', { exact: true }).fill('another password entirely');
  await join.getByLabel('New password again').fill('another password entirely');
  await join.getByRole('button', { name: 'Join the team' }).click();
  await expect(join.locator('#password-form-error')).toContainText('This link is not valid');
  await joinContext.close();
  return invite;
};

/**
 * A sign-in answered "try again" because the API was hashing as many passwords as it may at once
 * (its 503, which other tests' sign-ins beside this one can cause) is sent again, as a person
 * would: that answer counts against nobody.
 */
const pastTheHashingCap = async <TAnswer extends { body: string }>(
  send: () => Promise<TAnswer>,
): Promise<TAnswer> => {
  for (let tries = 1; ; tries += 1) {
    const answer = await send();
    if (!answer.body.includes("We can't reach our records") || tries === 10) {
      return answer;
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
};

test.describe('Staff accounts', () => {
  test('invited by email, Anna joins, approves an application, and the history names her', async ({
    browser,
    page,
    stack,
    api,
    staffApi,
  }) => {
    test.setTimeout(120_000);
    const anna = {
      email: `anna-${Date.now()}@store.test`,
      name: 'Anna Ortiz',
      password: newPassword(),
    };
    const invite = await inviteAndJoin(browser, stack, anna);

    // An application, placed on the public site.
    const category = (await categories(api))[0];
    const created = await api.pets.createPet({
      body: { name: uniqueName('Anna'), categoryId: category?.id ?? 1, status: 'available' },
    });
    const petId = created.status === 201 ? created.body.id : 0;
    const adopter = await browser.newContext();
    const publicPage = await adopter.newPage();
    await publicPage.goto(`${stack.siteUrl}/pets/${petId}`);
    await publicPage.getByRole('link', { name: 'Apply to adopt' }).click();
    await fillApplication(publicPage, { name: 'Grace Hopper', email: 'grace@example.org' });
    await publicPage.getByRole('button', { name: 'Send application' }).click();
    await expect(publicPage.getByRole('heading', { level: 1 })).toHaveText(/^Thank you/);
    await adopter.close();
    const orders = await api.orders.listOrders({ query: { petId, limit: 10 } });
    const orderId = orders.status === 200 ? (orders.body[0]?.id ?? 0) : 0;
    expect(orderId).toBeGreaterThan(0);

    // Anna signs in: the header names her; she approves.
    await signIn(page, stack.siteUrl, anna);
    await expect(page.getByText('Signed in as Anna Ortiz')).toBeVisible();
    // Staff, not admin: no Team link, and the page is not hers.
    await expect(
      page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Team' }),
    ).toHaveCount(0);
    await page.goto(`${stack.siteUrl}/staff/applications/${orderId}?confirm=approve`);
    await page.getByRole('button', { name: 'Yes, approve' }).click();
    await expect(page.getByRole('status')).toBeVisible();
    await page.goto(`${stack.siteUrl}/staff/applications/${orderId}`);
    await expect(page.getByText('by Anna Ortiz').first()).toBeVisible();
    // Staff keys read the name; the site's own key, a partner's, does not.
    const order = await staffApi.orders.getOrder({ params: { orderId } });
    expect(order.status === 200 && order.body.history.at(-1)).toMatchObject({
      to: 'approved',
      byName: 'Anna Ortiz',
    });
    const asPartner = await api.orders.getOrder({ params: { orderId } });
    expect(asPartner.status === 200 && asPartner.body.history.at(-1)?.byName).toBeUndefined();

    // The admin's audit log, filtered by Anna, lists the approval.
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await signIn(admin, stack.siteUrl, stack.adminAccount);
    await admin
      .getByRole('navigation', { name: 'Staff' })
      .getByRole('link', { name: 'Audit log' })
      .click();
    await expect(admin.getByRole('heading', { level: 1 })).toHaveText('Audit log');
    await admin.getByLabel('Person').selectOption({ label: `Anna Ortiz (${anna.email})` });
    await admin.getByLabel('Action').selectOption('order.approved');
    await admin.getByRole('button', { name: 'Show' }).click();
    await expect(admin).toHaveURL(/actor=\d+&action=order.approved/);
    const entries = admin.getByRole('list', { name: 'Audit entries' }).getByRole('listitem');
    await expect(entries).toHaveCount(1);
    await expect(entries.first()).toContainText(`Anna Ortiz approved application A-${orderId}`);
    await expect(entries.first().getByRole('link')).toHaveText(`application A-${orderId}`);
    // Every kind of entry reads in words: her joining and signing in, and the invitation.
    await admin.getByLabel('Action').selectOption({ label: 'Any action' });
    await admin.getByRole('button', { name: 'Show' }).click();
    await expect(entries.filter({ hasText: 'Anna Ortiz signed in' }).first()).toBeVisible();
    await expect(
      entries.filter({ hasText: 'accepted their invitation and joined the team' }),
    ).toHaveCount(1);
    await admin.getByLabel('Person').selectOption({ label: 'Everyone' });
    await admin.getByLabel('Action').selectOption({ label: 'Invited someone' });
    await admin.getByRole('button', { name: 'Show' }).click();
    await expect(
      entries.filter({ hasText: `${stack.adminAccount.name} invited Anna, as staff` }).first(),
    ).toBeVisible();
    await admin.goto(`${stack.siteUrl}/staff/audit`);
    await expect(entries.first()).toBeVisible();
    for (const line of await entries.allTextContents()) {
      expect(line).not.toMatch(
        /\b(session|account|passkey|plan|api_key|organization|order|pet)\.[a-z_]+/,
      );
    }

    // The dev mailbox labels the invitation as the staff member reads it, not as an adopter
    // would; its link is Anna's alone, so the admin sees the envelope and not the message.
    await admin.goto(`${stack.siteUrl}/staff/mail`);
    const listed = admin
      .getByRole('list', { name: 'Messages' })
      .getByRole('listitem')
      .filter({ hasText: anna.email });
    await expect(listed).toContainText('For a staff member');
    await expect(listed).toContainText('For its recipient only');
    await admin.goto(`${stack.siteUrl}/staff/mail/${invite.id}`);
    await expect(admin.getByRole('heading', { level: 1 })).toHaveText(invite.subject);
    await expect(admin.getByRole('heading', { level: 2 })).toHaveText(
      'Only its recipient reads this message',
    );
    await expect(admin.locator('iframe')).toHaveCount(0);
    expect(await admin.content()).not.toContain(staffLink(linksOf(invite), 'invite'));
    await adminContext.close();

    // Sign-out ends the session at the API: a copy of the cookie, replayed, is a stranger's.
    const copied = (await page.context().cookies()).find(({ name }) => name === SESSION_COOKIE);
    expect(copied).toBeDefined();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page.getByRole('status')).toHaveText('You are signed out.');
    const replay = await browser.newContext();
    await replay.addCookies([
      { name: SESSION_COOKIE, value: copied?.value ?? '', url: stack.siteUrl },
    ]);
    const replayPage = await replay.newPage();
    await replayPage.goto(`${stack.siteUrl}/staff/applications`);
    await expect(replayPage).toHaveURL(/\/staff\/sign-in/);
    await replay.close();
  });

  test("the dev mailbox is an admin's, and a reset link is read by its recipient only", async ({
    browser,
    stack,
  }) => {
    test.setTimeout(120_000);
    // A staff member asks for a reset of an admin's password, as anyone may...
    const staffContext = await browser.newContext();
    const staff = await staffContext.newPage();
    await staff.goto(`${stack.siteUrl}/staff/sign-in`);
    await staff.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(staff.getByRole('heading', { level: 1 })).toHaveText('Reset your password');
    await staff.getByLabel('Email').fill(stack.adminAccount.email);
    await staff.getByRole('button', { name: 'Email me a link' }).click();
    await expect(staff.getByRole('status')).toContainText('a link to reset its password', {
      timeout: 30_000,
    });
    const reset = await waitForMail(stack, stack.adminAccount.email, /Reset your .* password/);
    const link = staffLink(linksOf(reset), 'reset');

    // ...but cannot read it: the back office's mailbox is not theirs, by the menu or by address.
    await signIn(staff, stack.siteUrl, stack.staffAccount);
    const nav = staff.getByRole('navigation', { name: 'Staff' });
    await expect(nav.getByRole('link', { name: 'Applications' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Mail' })).toHaveCount(0);
    for (const path of ['/staff/mail', `/staff/mail/${reset.id}`]) {
      const answer = await staff.goto(`${stack.siteUrl}${path}`);
      expect(answer?.status(), path).toBe(404);
      expect(await staff.content()).not.toContain(link);
      await expect(staff.getByText(reset.subject)).toHaveCount(0);
    }
    await staffContext.close();

    // Another admin sees that it was sent, not its link; the admin it is for reads it.
    const second = {
      email: `second-admin-${Date.now()}@store.test`,
      name: 'Sam Second',
      password: newPassword(),
    };
    await inviteAndJoin(browser, stack, second, 'admin');
    const otherContext = await browser.newContext();
    const other = await otherContext.newPage();
    await signIn(other, stack.siteUrl, second);
    await other
      .getByRole('navigation', { name: 'Staff' })
      .getByRole('link', { name: 'Mail' })
      .click();
    await expect(other.getByRole('heading', { level: 1 })).toHaveText('Mail');
    await other
      .getByRole('list', { name: 'Messages' })
      .getByRole('link')
      .filter({ hasText: `To ${stack.adminAccount.email}` })
      .filter({ hasText: 'For its recipient only' })
      .first()
      .click();
    await expect(other.getByRole('heading', { level: 2 })).toHaveText(
      'Only its recipient reads this message',
    );
    expect(await other.content()).not.toContain(link);
    await otherContext.close();

    const ownerContext = await browser.newContext();
    const owner = await ownerContext.newPage();
    await signIn(owner, stack.siteUrl, stack.adminAccount);
    await owner.goto(`${stack.siteUrl}/staff/mail/${reset.id}`);
    await expect(owner.getByRole('heading', { level: 2 }).first()).toHaveText(
      'As the staff member sees it',
    );
    await expect(owner.locator('.mail-text')).toContainText(link);
    await ownerContext.close();
  });

  test('a password reset by email works once; sign out everywhere ends the other devices', async ({
    browser,
    stack,
  }) => {
    test.setTimeout(120_000);
    const person = {
      email: `reset-${Date.now()}@store.test`,
      name: 'Rita Reset',
      password: newPassword(),
    };
    await inviteAndJoin(browser, stack, person);

    // Signed in on a second device, which the reset will sign out.
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await signIn(otherPage, stack.siteUrl, person);

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${stack.siteUrl}/staff/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    // The sign-in page has an Email field too: wait for the reset page before filling one.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reset your password');
    await page.getByLabel('Email').fill(person.email);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await expect(page.getByRole('status')).toContainText('a link to reset its password', {
      timeout: 30_000,
    });
    const mail = await waitForMail(stack, person.email, /Reset your .* password/);
    const link = staffLink(linksOf(mail), 'reset');
    const renewed = newPassword();
    await page.goto(`${stack.siteUrl}${link}`);
    await page.getByLabel('New password', { exact: true }).fill(renewed);
    await page.getByLabel('New password again').fill(renewed);
    await page.getByRole('button', { name: 'Set my password' }).click();
    await expect(page).toHaveURL(/\/staff\/sign-in\?reset=1$/);
    // The link is used up.
    await page.goto(`${stack.siteUrl}${link}`);
    const again = newPassword();
    await page.getByLabel('New password', { exact: true }).fill(again);
    await page.getByLabel('New password again').fill(again);
    await page.getByRole('button', { name: 'Set my password' }).click();
    await expect(page.locator('#password-form-error')).toContainText('This link is not valid');
    // The reset ended the other device's session; the old password is refused, the new one works.
    await otherPage.goto(`${stack.siteUrl}/staff/animals`);
    await expect(otherPage).toHaveURL(/\/staff\/sign-in/);
    await fillSignIn(page, stack.siteUrl, person);
    await expect(page.locator('#sign-in-error')).toContainText('do not match');
    await signIn(page, stack.siteUrl, { email: person.email, password: renewed });

    // Two devices again; "Sign out everywhere" on the account page ends both.
    await signIn(otherPage, stack.siteUrl, { email: person.email, password: renewed });
    await page.goto(`${stack.siteUrl}/staff/account`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your account');
    await expect(page.getByRole('list', { name: 'Sessions' }).getByRole('listitem')).toHaveCount(2);
    await page
      .getByRole('main')
      .getByRole('button', { name: 'Sign out everywhere' })
      .first()
      .click();
    await expect(page.getByRole('status')).toContainText('You are signed out everywhere');
    await otherPage.goto(`${stack.siteUrl}/staff/animals`);
    await expect(otherPage).toHaveURL(/\/staff\/sign-in/);
    await other.close();
    await context.close();
  });

  test('a deactivated account cannot sign in', async ({ page, stack }) => {
    await fillSignIn(page, stack.siteUrl, stack.deactivatedAccount);
    await expect(page.locator('#sign-in-error')).toContainText('This account has been deactivated');
    expect((await page.context().cookies()).map(({ name }) => name)).not.toContain(SESSION_COOKIE);
  });

  test('wrong passwords from one visitor get "too many"; another visitor still signs in', async ({
    stack,
  }) => {
    // The guarded site keeps the default limit: five refusals per visitor in ten minutes.
    const guesser = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress());
    const form = await guesser.form('/staff/sign-in', 'email');
    const answers = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      answers.push(
        await pastTheHashingCap(() =>
          guesser.submit(form, { email: stack.staffAccount.email, password: newPassword() }),
        ),
      );
    }
    // What each answer said, so a failure shows it.
    const said = (body: string) =>
      body.includes('do not match')
        ? 'do not match'
        : (/Too many[^<.]*|We can[^<.]*|Something went wrong[^<.]*/.exec(body)?.[0] ??
          `status page of ${body.length} characters`);
    expect(answers.slice(0, 5).map((answer) => said(answer.body))).toEqual(
      Array(5).fill('do not match'),
    );
    expect(answers[5]?.body).toContain('Too many sign-ins were refused from here');
    // Even the right password, from the guesser: still too many.
    const right = await pastTheHashingCap(() =>
      guesser.submit(form, {
        email: stack.staffAccount.email,
        password: stack.staffAccount.password,
      }),
    );
    expect(right.body).toContain('Too many sign-ins were refused from here');

    const colleague = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress());
    const colleagueForm = await colleague.form('/staff/sign-in', 'email');
    const signedIn = await pastTheHashingCap(() =>
      colleague.submit(colleagueForm, {
        email: stack.staffAccount.email,
        password: stack.staffAccount.password,
      }),
    );
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe('/staff/applications');
  });
});
