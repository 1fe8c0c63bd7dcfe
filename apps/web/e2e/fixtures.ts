import { contract } from '@pets/contract';
import { test as base, expect } from '@playwright/test';
import { initClient } from '@ts-rest/core';
import { STACK_ENV, type TStack, type TStacks } from './harness/stack';

/**
 * This worker's stack (global-setup.ts starts one per worker slot): no other worker uses it while
 * this one runs, so a project's tests in one worker share a database one at a time.
 */
const readStack = (parallelIndex: number): TStack => {
  const raw = process.env[STACK_ENV];
  if (!raw) {
    throw new Error(`${STACK_ENV} is not set: run the tests through playwright.config.ts.`);
  }
  const stack = (JSON.parse(raw) as TStacks)[parallelIndex];
  if (!stack) {
    throw new Error(`no stack for the worker slot ${parallelIndex}: see harness/projects.ts`);
  }
  return stack;
};

/**
 * The contract's client with the site's key (or another): how the tests set data up and learn what
 * to expect.
 */
const apiClient = (stack: TStack, key = stack.webApiKey) =>
  initClient(contract, {
    baseUrl: stack.apiUrl.replace(/\/v1$/, ''),
    baseHeaders: { authorization: `Bearer ${key}` },
    validateResponse: true,
  });

export type TApiClient = ReturnType<typeof apiClient>;

export const test = base.extend<object, { stack: TStack; api: TApiClient; staffApi: TApiClient }>({
  stack: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature.
    async ({}, use, workerInfo) => {
      await use(readStack(workerInfo.parallelIndex));
    },
    { scope: 'worker' },
  ],
  api: [
    async ({ stack }, use) => {
      await use(apiClient(stack));
    },
    { scope: 'worker' },
  ],
  /** The store's own key: for what only staff may do (an animal published as already adopted). */
  staffApi: [
    async ({ stack }, use) => {
      await use(apiClient(stack, stack.staffApiKey));
    },
    { scope: 'worker' },
  ],
});

export { expect };
