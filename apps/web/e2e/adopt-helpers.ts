import type { TPet } from '@pets/contract';
import type { Page } from '@playwright/test';
import { expect, type TApiClient } from './fixtures';
import { categories, uniqueName } from './helpers';

/** A new available animal of its own, so each test starts from a clean slate. */
export const newAvailablePet = async (api: TApiClient, prefix: string): Promise<TPet> => {
  const [category] = await categories(api);
  const response = await api.pets.createPet({
    body: { name: uniqueName(prefix), categoryId: category?.id ?? 1, status: 'available' },
  });
  expect(response.status).toBe(201);
  if (response.status !== 201) {
    throw new Error('createPet failed');
  }
  return response.body;
};

/** The orders the site's key placed for this animal, as the API has them. */
export const ordersFor = async (api: TApiClient, petId: number) => {
  const response = await api.orders.listOrders({ query: { petId, limit: 100 } });
  expect(response.status).toBe(200);
  return response.status === 200 ? response.body : [];
};

export const fillApplication = async (
  page: Page,
  adopter: {
    name: string;
    email: string;
    phone?: string;
    household?: string;
    otherAnimals?: string;
    message?: string;
  },
) => {
  await page.getByLabel('Your name').fill(adopter.name);
  await page.getByLabel('Email', { exact: true }).fill(adopter.email);
  await page.getByLabel('Phone (optional)').fill(adopter.phone ?? '');
  await page.getByLabel('Who lives with you (optional)').fill(adopter.household ?? '');
  await page.getByLabel('Other animals at home (optional)').fill(adopter.otherAnimals ?? '');
  await page.getByLabel(/A few words about your home/).fill(adopter.message ?? '');
};
