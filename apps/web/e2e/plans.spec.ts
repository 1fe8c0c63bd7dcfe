import { expectNoSeriousViolations } from './axe';
import { createKeyIn, signedUpDeveloper } from './developer-helpers';
import { expect, test } from './fixtures';
import type { TStack } from './harness/stack';
import { linksOf, waitForMail } from './mail-helpers';
import { signIn as staffSignIn } from './staff-helpers';

/**
 * Plans (issue 27, §4.5): a developer asks for the Pro plan at /developers/plan, a staff member
 * reads it at /staff/plans but only an admin decides it, the developer's page says Pro, a call with
 * their key carries the new X-RateLimit-Limit within seconds, and the decision email arrives. Real
 * API, real SMTP, Chromium.
 */

/** The X-RateLimit-Limit of a GET /v1/pets with the key. */
const limitWith = async (stack: TStack, key: string): Promise<string | null> => {
  const response = await fetch(`${stack.apiUrl}/pets?limit=1`, {
    headers: { authorization: `Bearer ${key}` },
  });
  await response.arrayBuffer();
  return response.status === 200 ? response.headers.get('x-ratelimit-limit') : null;
};

test.describe('Plans', () => {
  test('a developer asks for Pro, staff see it, an admin approves, the key gets the new limit and the email arrives', async ({
    page,
    browser,
    stack,
  }) => {
    test.setTimeout(120_000);
    const developer = await signedUpDeveloper(page, stack);
    const key = await createKeyIn(page, stack.siteUrl, 'Plan app');
    expect(await limitWith(stack, key)).toBe('60');

    // The plan page: the Free plan's limits, and the request form.
    await page
      .getByRole('navigation', { name: 'Developers' })
      .getByRole('link', { name: 'Plan' })
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your plan');
    await expect(page.getByRole('heading', { name: 'Plan: Free' })).toBeVisible();
    await expect(page.getByRole('row', { name: /^Pro/ })).toContainText('300');
    await page.getByLabel('Pro', { exact: true }).check();
    await page.getByLabel('Message (optional)').fill('We sync 40 shelters every few minutes.');
    await page.getByRole('button', { name: 'Ask for this plan' }).click();
    await expect(page).toHaveURL(`${stack.siteUrl}/developers/plan?requested=1`);
    await expect(page.getByRole('status')).toContainText('Your request is sent.');
    await expect(page.getByRole('heading', { name: 'Waiting for our answer' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Withdraw the request' })).toBeVisible();

    // The dashboard says a request is waiting, and links to it.
    await page.goto(`${stack.siteUrl}/developers`);
    const planPanel = page.getByRole('region', { name: 'Plan: Free' });
    await expect(planPanel).toContainText(
      /You asked for the Pro plan on .+; staff will answer by email\./,
    );
    await planPanel.getByRole('link', { name: 'See your request' }).click();
    await expect(page.getByRole('heading', { name: 'Waiting for our answer' })).toBeVisible();

    // The admins hear of it by email, with the way to the queue.
    const notice = await waitForMail(
      stack,
      stack.adminAccount.email,
      new RegExp(`^${developer.organization} asks for the Pro plan$`),
    );
    expect(notice.text).toContain('We sync 40 shelters every few minutes.');
    expect(linksOf(notice).some((href) => href.endsWith('/staff/plans'))).toBe(true);

    // A staff member reads it in the back office, but the decision is an admin's, and says so.
    const staffContext = await browser.newContext();
    const staff = await staffContext.newPage();
    await staffSignIn(staff, stack.siteUrl, stack.staffAccount);
    await staff
      .getByRole('navigation', { name: 'Staff' })
      .getByRole('link', { name: 'Plans' })
      .click();
    await expect(staff.getByRole('heading', { level: 1 })).toHaveText('Plan requests');
    const asStaff = staff.getByRole('listitem').filter({
      has: staff.getByRole('heading', { name: `${developer.organization}: Free → Pro` }),
    });
    await expect(asStaff).toContainText('We sync 40 shelters every few minutes.');
    await expect(asStaff).toContainText("Waiting for an admin's decision");
    await expect(asStaff.getByRole('button')).toHaveCount(0);
    await expect(staff.getByText(/Only an admin decides a plan request/)).toBeVisible();
    await staffContext.close();

    // An admin approves it.
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await staffSignIn(admin, stack.siteUrl, stack.adminAccount);
    await admin.goto(`${stack.siteUrl}/staff/plans`);
    await expect(admin.getByText(/Only an admin decides/)).toHaveCount(0);
    const item = admin.getByRole('listitem').filter({
      has: admin.getByRole('heading', { name: `${developer.organization}: Free → Pro` }),
    });
    await expect(item).toContainText(developer.email);
    await item.getByLabel('Note to the developer (optional)').fill('Welcome to Pro.');
    await item.getByRole('button', { name: /^Approve/ }).click();
    await expect(admin.locator('p.notice')).toContainText(`Approved: ${developer.organization}`);
    await expect(
      admin.getByRole('heading', { name: `${developer.organization}: Free → Pro` }),
    ).toHaveCount(0);
    await adminContext.close();

    // The developer's plan page says Pro, and the key's limit follows within seconds.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Plan: Pro' })).toBeVisible();
    await expect(page.getByText(/Your request for the Pro plan was approved/)).toBeVisible();
    await expect(page.getByText('Our note: Welcome to Pro.')).toBeVisible();
    await expect
      .poll(() => limitWith(stack, key), { timeout: 10_000, intervals: [500] })
      .toBe('300');

    const mail = await waitForMail(stack, developer.email, /Your Pro plan is ready/);
    expect(mail.text).toContain('300 requests a minute and 10,000 a day');
    expect(mail.text).toContain('Welcome to Pro.');
    expect(linksOf(mail).some((href) => href.endsWith('/developers/plan'))).toBe(true);
  });

  test('Enterprise needs its limits; a declined request keeps the plan; both pages pass axe at desktop and phone width', async ({
    page,
    browser,
    stack,
  }) => {
    test.setTimeout(120_000);
    const developer = await signedUpDeveloper(page, stack);
    await page.goto(`${stack.siteUrl}/developers/plan`);
    await page.getByLabel('Enterprise', { exact: true }).check();
    await page.getByRole('button', { name: 'Ask for this plan' }).click();
    await expect(page.getByRole('heading', { name: 'Waiting for our answer' })).toBeVisible();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoSeriousViolations(page, `Your plan, a request waiting (${width})`);
    }

    const staffContext = await browser.newContext();
    const staff = await staffContext.newPage();
    await staffSignIn(staff, stack.siteUrl, stack.adminAccount);
    await staff.goto(`${stack.siteUrl}/staff/plans`);
    const title = `${developer.organization}: Free → Enterprise`;
    const item = staff
      .getByRole('listitem')
      .filter({ has: staff.getByRole('heading', { name: title }) });
    for (const width of [1280, 390]) {
      await staff.setViewportSize({ width, height: 900 });
      await expectNoSeriousViolations(staff, `Plan requests (${width})`);
    }
    // Approving Enterprise without its limits is refused in the contract's words.
    await item.getByRole('button', { name: /^Approve/ }).click();
    await expect(staff.locator('p.notice')).toHaveText(
      'Enterprise organisations need both custom limits: rpm (per minute) and rpd (per day).',
    );
    // Declined, with a note.
    await item.getByLabel('Note to the developer (optional)').fill('Business covers your traffic.');
    await item.getByRole('button', { name: /^Decline/ }).click();
    await expect(staff.locator('p.notice')).toContainText(`Declined: ${developer.organization}`);
    await staff.goto(`${stack.siteUrl}/staff/plans?status=declined`);
    await expect(staff.getByRole('heading', { name: title })).toBeVisible();
    await staffContext.close();

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Plan: Free' })).toBeVisible();
    await expect(page.getByText(/Your request for the Enterprise plan was declined/)).toBeVisible();
    await expect(page.getByText('Our note: Business covers your traffic.')).toBeVisible();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoSeriousViolations(page, `Your plan, after a decision (${width})`);
    }
    const mail = await waitForMail(
      stack,
      developer.email,
      /About your request for the Enterprise plan/,
    );
    expect(mail.text).toContain('Business covers your traffic.');
  });

  test('Enterprise approved with its limits, which an admin changes later; the key follows both', async ({
    page,
    browser,
    stack,
  }) => {
    test.setTimeout(120_000);
    const developer = await signedUpDeveloper(page, stack);
    const key = await createKeyIn(page, stack.siteUrl, 'Enterprise app');
    await page.goto(`${stack.siteUrl}/developers/plan`);
    await page.getByLabel('Enterprise', { exact: true }).check();
    await page.getByRole('button', { name: 'Ask for this plan' }).click();
    await expect(page.getByRole('heading', { name: 'Waiting for our answer' })).toBeVisible();

    const staffContext = await browser.newContext();
    const staff = await staffContext.newPage();
    await staffSignIn(staff, stack.siteUrl, stack.adminAccount);
    await staff.goto(`${stack.siteUrl}/staff/plans`);
    const title = `${developer.organization}: Free → Enterprise`;
    const item = staff
      .getByRole('listitem')
      .filter({ has: staff.getByRole('heading', { name: title }) });
    await item.getByLabel('Requests per minute (rpm)').fill('2500');
    await item.getByLabel('Requests per day (rpd)').fill('2000000');
    await item.getByRole('button', { name: /^Approve/ }).click();
    await expect(staff.locator('p.notice')).toContainText(`Approved: ${developer.organization}`);
    await expect
      .poll(() => limitWith(stack, key), { timeout: 10_000, intervals: [500] })
      .toBe('2500');

    // Later: the approved requests, and the organisation's limits set again.
    await staff.goto(`${stack.siteUrl}/staff/plans?status=approved`);
    const approved = staff
      .getByRole('listitem')
      .filter({ has: staff.getByRole('heading', { name: title }) });
    await expect(approved).toContainText('2,500 a minute, 2,000,000 a day');
    await approved.getByLabel('Requests per minute (rpm)').fill('4000');
    await approved.getByRole('button', { name: /^Save the limits/ }).click();
    await expect(staff.locator('p.notice')).toContainText(
      `Saved: the limits of ${developer.organization}.`,
    );
    await staffContext.close();
    await expect
      .poll(() => limitWith(stack, key), { timeout: 10_000, intervals: [500] })
      .toBe('4000');
    await page.reload();
    await expect(page.getByRole('region', { name: 'Plan: Enterprise' })).toContainText('4,000');
  });
});
