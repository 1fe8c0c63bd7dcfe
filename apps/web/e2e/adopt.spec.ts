import type { Page } from '@playwright/test';
import { fillApplication, newAvailablePet, ordersFor } from './adopt-helpers';
import { expectNoSeriousViolations } from './axe';
import { expect, test } from './fixtures';
import { categories, expectNoTechnicalDetails, uniqueName } from './helpers';

const send = (page: Page) => page.getByRole('button', { name: 'Send application' }).click();

const referenceOnConfirmation = async (page: Page): Promise<string> => {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Thank you for applying/);
  const reference = ((await page.locator('.reference').textContent()) ?? '').trim();
  expect(reference).toMatch(/^A-\d+$/);
  return reference;
};

test.describe('Applying to adopt', () => {
  test('an available animal offers "Apply to adopt"; sending the form places one order and confirms it', async ({
    page,
    stack,
    api,
    staffApi,
  }) => {
    const pet = await newAvailablePet(api, 'Apply');
    await page.goto(`${stack.siteUrl}/pets/${pet.id}`);
    await expect(page.getByText('ask at the front desk', { exact: false })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: `Meet ${pet.name}` })).toBeVisible();
    const visit = page.getByRole('region', { name: `Meet ${pet.name}` });
    await expect(visit).toContainText('Address12 Orchard Lane, Millbrook, MB1 2PA');
    await expect(visit).toContainText('Opening hoursTuesday to Saturday, 10:00 to 17:00');
    await expect(page.locator('footer')).toContainText('Visit us at 12 Orchard Lane');
    await page.getByRole('link', { name: 'Apply to adopt' }).click();
    await expect(page).toHaveURL(`${stack.siteUrl}/pets/${pet.id}/apply`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Apply to adopt ${pet.name}`);

    await fillApplication(page, {
      name: 'Ada Lovelace',
      email: 'Ada@Example.org',
      phone: '+44 20 7946 0958',
      message: 'We have a garden and a calm old cat.',
    });
    await send(page);
    const reference = await referenceOnConfirmation(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      `Thank you for applying to adopt ${pet.name}`,
    );
    await expect(page.getByText(/contacts you within 3 working days/)).toBeVisible();

    const orders = await ordersFor(api, pet.id);
    expect(orders.map((order) => `A-${order.id}`)).toEqual([reference]);
    expect(orders[0]?.adopter).toEqual({
      name: 'Ada Lovelace',
      email: 'Ada@Example.org',
      phone: '+44 20 7946 0958',
    });
    expect(orders[0]?.message).toBe('We have a garden and a calm old cat.');

    // An application does not hold the animal: still available, one application in review.
    await page.goto(`${stack.siteUrl}/pets/${pet.id}`);
    await expect(page.getByText('1 application in review')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Apply to adopt' })).toBeVisible();
    // Once the store approves an adopter, the animal is pending: its page says so kindly and
    // offers no form.
    const approved = await staffApi.orders.approveOrder({
      params: { orderId: orders[0]?.id ?? 0 },
    });
    expect(approved.status).toBe(200);
    await page.goto(`${stack.siteUrl}/pets/${pet.id}`);
    await expect(page.locator('dl.facts')).toContainText('Pending adoption');
    await expect(page.getByRole('link', { name: 'Apply to adopt' })).toHaveCount(0);
    await page.goto(`${stack.siteUrl}/pets/${pet.id}/apply`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      `${pet.name} is already spoken for`,
    );
    await expect(page.getByRole('textbox')).toHaveCount(0);
  });

  test('an adopted animal says so kindly: no "Apply to adopt", no form', async ({
    page,
    stack,
    api,
    staffApi,
  }) => {
    const [category] = await categories(api);
    const created = await staffApi.pets.createPet({
      body: { name: uniqueName('Homed'), categoryId: category?.id ?? 1, status: 'sold' },
    });
    expect(created.status).toBe(201);
    const pet = created.status === 201 ? created.body : undefined;
    await page.goto(`${stack.siteUrl}/pets/${pet?.id}`);
    await expect(page.getByText(`${pet?.name} has found a home.`)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Apply to adopt' })).toHaveCount(0);
    await page.goto(`${stack.siteUrl}/pets/${pet?.id}/apply`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      `${pet?.name} has found a home`,
    );
    await expect(page.getByRole('textbox')).toHaveCount(0);
    await page.getByRole('link', { name: 'See who is still looking' }).click();
    await expect(page).toHaveURL(`${stack.siteUrl}/?status=available`);
  });

  test("the browser checks the form with the contract's rules before anything is sent", async ({
    page,
    stack,
    api,
  }) => {
    const pet = await newAvailablePet(api, 'Checked');
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') {
        posts.push(request.url());
      }
    });
    await page.goto(`${stack.siteUrl}/pets/${pet.id}/apply`);
    await send(page);
    await expect(page.locator('#adopter-name-error')).toHaveText('Enter your name.');
    await expect(page.locator('#adopter-email-error')).toHaveText('Enter your email address.');
    await expect(page.getByLabel('Your name')).toBeFocused();
    await expect(page.getByLabel('Your name')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Your name')).toHaveAttribute(
      'aria-describedby',
      'adopter-name-error',
    );

    await fillApplication(page, { name: 'Ada', email: 'ada', phone: 'call me' });
    await send(page);
    await expect(page.locator('#adopter-email-error')).toHaveText(
      'Enter an email address like name@example.org.',
    );
    await expect(page.locator('#adopter-phone-error')).toHaveText(
      'Phone must be digits, spaces and ( ) - . with an optional leading +.',
    );
    await expect(page.getByLabel('Email', { exact: true })).toBeFocused();
    // Typing in a field clears its message.
    await page.getByLabel('Email', { exact: true }).fill('ada@example.org');
    await expect(page.locator('#adopter-email-error')).toHaveCount(0);
    expect(posts, 'nothing was sent while the form was invalid').toEqual([]);
    expect(await ordersFor(api, pet.id)).toEqual([]);
  });

  test('without JavaScript the server checks the same rules and keeps what was typed', async ({
    browser,
    stack,
    api,
  }) => {
    const pet = await newAvailablePet(api, 'NoScript');
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${stack.siteUrl}/pets/${pet.id}/apply`);
    await fillApplication(page, {
      name: '  ',
      email: 'not-an-address',
      message: 'A flat with a balcony.',
    });
    await send(page);
    await expect(page.locator('#adopter-name-error')).toHaveText('Enter your name.');
    await expect(page.locator('#adopter-email-error')).toHaveText(
      'Enter an email address like name@example.org.',
    );
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue('not-an-address');
    await expect(page.getByLabel(/A few words about your home/)).toHaveValue(
      'A flat with a balcony.',
    );
    expect(await ordersFor(api, pet.id)).toEqual([]);

    await fillApplication(page, {
      name: 'Grace Hopper',
      email: 'grace@example.org',
      message: 'A flat with a balcony.',
    });
    await send(page);
    const reference = await referenceOnConfirmation(page);
    expect((await ordersFor(api, pet.id)).map((order) => `A-${order.id}`)).toEqual([reference]);
    await context.close();
  });

  test('a double submit or a resent form is one application, and both get its confirmation', async ({
    browser,
    stack,
    api,
  }) => {
    const pet = await newAvailablePet(api, 'Twice');
    // Without JavaScript, as a browser posts a form: the same body (and so the same hidden token)
    // sent twice at once, then once more, as a double click and a reload of the POST would.
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${stack.siteUrl}/pets/${pet.id}/apply`);
    const token = await page.locator('input[name="token"]').inputValue();
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    await fillApplication(page, { name: 'Katherine Johnson', email: 'kj@example.org' });
    const fields = await page
      .locator('form input, form textarea')
      .evaluateAll((elements) =>
        (elements as HTMLInputElement[]).map((element) => [element.name, element.value] as const),
      );
    const multipart = Object.fromEntries(fields.filter(([name]) => name !== ''));
    const post = () => context.request.post(`${stack.siteUrl}/pets/${pet.id}/apply`, { multipart });
    const [first, second] = await Promise.all([post(), post()]);
    const third = await post();
    const answers = [first, second, third];
    for (const response of answers) {
      expect(response.status()).toBe(200);
      expect(response.url()).toBe(`${stack.siteUrl}/applications/sent`);
    }
    const orders = await ordersFor(api, pet.id);
    expect(orders).toHaveLength(1);
    // Every attempt lands on the same confirmation: the one application's reference.
    for (const response of answers) {
      expect(await response.text()).toContain(`A-${orders[0]?.id}`);
    }

    // A new rendering of the form is a new token: a second application is a new request.
    await page.reload();
    await expect(page.locator('input[name="token"]')).not.toHaveValue(String(multipart.token));
    await context.close();
  });

  test('an animal taken while the form was open: told in plain words, nothing typed is lost', async ({
    page,
    stack,
    api,
    staffApi,
  }) => {
    const pet = await newAvailablePet(api, 'Taken');
    await page.goto(`${stack.siteUrl}/pets/${pet.id}/apply`);
    await fillApplication(page, {
      name: 'Mary Somerville',
      email: 'mary@example.org',
      phone: '0131 496 0000',
      message: 'A house by the sea.',
    });
    // Someone else is quicker, and the store approves them: the animal is set aside.
    const other = await api.orders.placeOrder({
      body: { petId: pet.id, adopter: { name: 'Someone Else', email: 'else@example.org' } },
    });
    expect(other.status).toBe(201);
    const approved = await staffApi.orders.approveOrder({
      params: { orderId: other.status === 201 ? other.body.id : 0 },
    });
    expect(approved.status).toBe(200);
    await send(page);

    const alert = page.locator('main').getByRole('alert');
    await expect(alert).toContainText('set aside for another adopter');
    await expect(alert).toContainText('What you wrote is still here.');
    await expect(alert).toBeFocused();
    await expect(page.getByLabel('Your name')).toHaveValue('Mary Somerville');
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue('mary@example.org');
    await expect(page.getByLabel('Phone (optional)')).toHaveValue('0131 496 0000');
    await expect(page.getByLabel(/A few words about your home/)).toHaveValue('A house by the sea.');
    await expect(page.getByRole('button', { name: 'Send application' })).toHaveCount(0);
    await alert.getByRole('link', { name: 'See the animals still looking for a home' }).click();
    await expect(page).toHaveURL(`${stack.siteUrl}/?status=available`);
    expect(await ordersFor(api, pet.id)).toHaveLength(1);
  });
});

test.describe('Following an application', () => {
  const NOT_FOUND = /couldn't find an application with that reference and email address/;

  test('shows it only with its reference and its email; anything else is the same "not found"', async ({
    page,
    stack,
    api,
  }) => {
    const pet = await newAvailablePet(api, 'Status');
    const placed = await api.orders.placeOrder({
      body: { petId: pet.id, adopter: { name: 'Ada', email: 'ada.status@example.org' } },
    });
    expect(placed.status).toBe(201);
    const orderId = placed.status === 201 ? placed.body.id : 0;

    const lookUp = async (reference: string, email: string) => {
      await page.goto(`${stack.siteUrl}/applications/status`);
      await page.getByLabel('Reference', { exact: true }).fill(reference);
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByRole('button', { name: 'Show my application' }).click();
    };

    // The right reference and email (however they are typed): the application and its steps.
    await lookUp(`a-${orderId}`, '  ADA.Status@example.org ');
    const application = page.getByRole('region', { name: /^Application A-\d+/ });
    await expect(application.getByRole('heading')).toHaveText(
      `Application A-${orderId} to adopt ${pet.name}`,
    );
    await expect(application).toContainText('The store has your application');
    await expect(
      application.getByRole('list', { name: 'Progress' }).getByRole('listitem'),
    ).toHaveText([/^Application received/]);
    await expect(application.getByRole('heading')).toBeFocused();

    // Wrong email, unknown reference, a reference that cannot be one: the same words.
    const answers: string[] = [];
    for (const [reference, email] of [
      [`A-${orderId}`, 'someone.else@example.org'],
      ['A-987654321', 'ada.status@example.org'],
      ['hello', 'ada.status@example.org'],
    ] as const) {
      await lookUp(reference, email);
      await expect(page.locator('main').getByRole('alert')).toHaveText(NOT_FOUND);
      await expect(page.getByRole('region', { name: /^Application/ })).toHaveCount(0);
      // The whole page's text, not only the message: nothing else may differ either.
      answers.push((await page.locator('main').textContent()) ?? '');
    }
    expect(new Set(answers).size, 'wrong email, unknown and malformed look identical').toBe(1);
    expect(answers[0]).not.toContain(pet.name);

    // Each further step appears in plain words: the adopter's own key may cancel.
    expect((await api.orders.cancelOrder({ params: { orderId } })).status).toBe(200);
    await lookUp(`A-${orderId}`, 'ada.status@example.org');
    await expect(page.getByRole('list', { name: 'Progress' }).getByRole('listitem')).toHaveText([
      /^Application received/,
      /^Application closed/,
    ]);
    await expect(page.getByText(/This application was closed/)).toBeVisible();
  });

  test('works without JavaScript, and the confirmation leads to it with the reference filled in', async ({
    browser,
    stack,
    api,
  }) => {
    const pet = await newAvailablePet(api, 'Follow');
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${stack.siteUrl}/pets/${pet.id}/apply`);
    await fillApplication(page, { name: 'Emmy Noether', email: 'emmy@example.org' });
    await send(page);
    const reference = await referenceOnConfirmation(page);
    await page.getByRole('link', { name: 'Follow your application' }).click();
    await expect(page.getByLabel('Reference', { exact: true })).toHaveValue(reference);
    await page.getByLabel('Email', { exact: true }).fill('emmy@example.org');
    await page.getByRole('button', { name: 'Show my application' }).click();
    await expect(
      page.getByRole('heading', { name: `Application ${reference} to adopt ${pet.name}` }),
    ).toBeVisible();
    // The email was POSTed: it is in no address.
    expect(page.url()).not.toContain('emmy');
    await context.close();
  });
});

test.describe('Adopting keeps the keys to itself', () => {
  test("neither the site's key nor the key start in an application's history reaches the browser", async ({
    page,
    stack,
    api,
  }) => {
    const bodies: Promise<{ url: string; text: string }>[] = [];
    page.on('response', (response) => {
      bodies.push(
        response
          .text()
          .then((text) => ({ url: response.url(), text }))
          .catch(() => ({ url: response.url(), text: '' })),
      );
    });
    const pet = await newAvailablePet(api, 'Keeper');
    await page.goto(`${stack.siteUrl}/pets/${pet.id}`);
    await page.getByRole('link', { name: 'Apply to adopt' }).click();
    await fillApplication(page, { name: 'Ada', email: 'ada.keeper@example.org' });
    await send(page);
    const reference = await referenceOnConfirmation(page);
    await page.getByRole('link', { name: 'Follow your application' }).click();
    await page.getByLabel('Email', { exact: true }).fill('ada.keeper@example.org');
    await page.getByRole('button', { name: 'Show my application' }).click();
    await expect(page.getByRole('list', { name: 'Progress' })).toBeVisible();
    await page.waitForLoadState('networkidle');

    const order = await api.orders.getOrder({ params: { orderId: Number(reference.slice(2)) } });
    expect(order.status).toBe(200);
    const keyStart = order.status === 200 ? order.body.history[0]?.by : undefined;
    expect(keyStart).toMatch(/^pets_/);
    const responses = await Promise.all(bodies);
    expect(responses.length).toBeGreaterThan(5);
    for (const { url, text } of responses) {
      expect(text.includes(stack.webApiKey), `the key in ${url}`).toBe(false);
      expect(text.includes(keyStart ?? 'pets_'), `the key start in ${url}`).toBe(false);
    }
  });
});

test.describe('Adopting when the API cannot answer', () => {
  test('the apply page and the status page stay calm, with a way on', async ({ page, stack }) => {
    await page.goto(`${stack.offlineSiteUrl}/pets/1/apply`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Try again' })).toHaveAttribute(
      'href',
      '/pets/1/apply',
    );
    await expectNoTechnicalDetails(page);
    await expectNoSeriousViolations(page, 'the apply page, API unreachable');

    await page.goto(`${stack.offlineSiteUrl}/applications/status`);
    await page.getByLabel('Reference', { exact: true }).fill('A-1');
    await page.getByLabel('Email', { exact: true }).fill('ada@example.org');
    await page.getByRole('button', { name: 'Show my application' }).click();
    await expect(page.locator('main').getByRole('alert')).toHaveText(
      "We can't reach our adoption records right now. Please try again in a minute.",
    );
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue('ada@example.org');
    await expectNoSeriousViolations(page, 'the status page, API unreachable');
  });
});
