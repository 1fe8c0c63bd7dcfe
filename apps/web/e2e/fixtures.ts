import { contract } from '@pets/contract';
import { test as base, expect } from '@playwright/test';
import { initClient } from '@ts-rest/core';
import { STACK_ENV, type TStack } from './harness/stack';

const readStack = (): TStack => {
  const raw = process.env[STACK_ENV];
  if (!raw) {
    throw new Error(`${STACK_ENV} is not set: run the tests through playwright.config.ts.`);
  }
  return JSON.parse(raw) as TStack;
};

/** The contract's client with the site's key: how the tests set data up and learn what to expect. */
const apiClient = (stack: TStack) =>
  initClient(contract, {
    baseUrl: stack.apiUrl.replace(/\/v1$/, ''),
    baseHeaders: { authorization: `Bearer ${stack.webApiKey}` },
    validateResponse: true,
  });

export type TApiClient = ReturnType<typeof apiClient>;

export const test = base.extend<object, { stack: TStack; api: TApiClient }>({
  stack: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature.
    async ({}, use) => {
      await use(readStack());
    },
    { scope: 'worker' },
  ],
  api: [
    async ({ stack }, use) => {
      await use(apiClient(stack));
    },
    { scope: 'worker' },
  ],
});

export { expect };
