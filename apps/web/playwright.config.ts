import { chromiumLaunchOptions } from '@pets/testing';
import { defineConfig, devices } from '@playwright/test';
import { testEnv } from './e2e/harness/test-env';

/**
 * Browser tests of the built site (`next start`) against a real API on a real PostgreSQL
 * database, in Debian's Chromium. e2e/global-setup.ts starts all of it and stops it afterwards.
 */
export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/global-setup.ts',
  outputDir: './test-results',
  // One worker: the tests share one database and some of them add animals to it.
  workers: 1,
  fullyParallel: false,
  forbidOnly: testEnv.isCi,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  projects: [
    // First, on the freshly seeded store: screenshots show what a visitor would see.
    { name: 'screenshots', testMatch: /screenshots\.spec\.ts$/ },
    { name: 'site', testIgnore: /screenshots\.spec\.ts$/, dependencies: ['screenshots'] },
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
