import { chromiumLaunchOptions } from '@pets/testing';
import { defineConfig, devices } from '@playwright/test';
import { SITE_WORKERS, WORKERS } from './e2e/harness/projects';
import { testEnv } from './e2e/harness/test-env';

/**
 * Browser tests of the built site (`next start`) against a real API on a real PostgreSQL
 * database, in Debian's Chromium. e2e/global-setup.ts starts all of it and stops it afterwards.
 */
export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/global-setup.ts',
  outputDir: './test-results',
  // The screenshot walk and the other tests side by side, each worker on a stack of its own
  // (e2e/global-setup.ts): a worker's tests share its stack's database, whose animals some of
  // them add, one test at a time.
  workers: WORKERS,
  fullyParallel: false,
  forbidOnly: testEnv.isCi,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  projects: [
    // The screenshot walk, on a freshly seeded store of its own (global-setup.ts): screenshots
    // show what a visitor would see, whatever the other tests add meanwhile.
    { name: 'screenshots', testMatch: /screenshots\.spec\.ts$/, workers: 1 },
    { name: 'site', testIgnore: /screenshots\.spec\.ts$/, workers: SITE_WORKERS },
  ],
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: chromiumLaunchOptions(testEnv.chromiumPath),
  },
});
