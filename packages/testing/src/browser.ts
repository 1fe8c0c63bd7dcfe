/**
 * How the tests launch a browser: Debian's Chromium (Playwright's own browser download does not
 * work on our machines, see shared/STACK.md). Used by the API's docs test (playwright-core) and
 * the site's Playwright config, so the path and the flags live here once.
 */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/** Headless, no sandbox (containers, root), and nothing that reaches the network on its own. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Playwright's `launchOptions` (chromium.launch / `use.launchOptions`). */
export const chromiumLaunchOptions = (executablePath: string = DEFAULT_CHROMIUM_PATH) => ({
  executablePath,
  headless: true,
  args: [...CHROMIUM_ARGS],
});
