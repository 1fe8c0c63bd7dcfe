import { chromiumLaunchOptions, DEFAULT_CHROMIUM_PATH } from '@pets/testing';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (Playwright's own browser download does not work here), see STACK.md. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH;

export const launchChromium = (): Promise<Browser> =>
  chromium.launch(chromiumLaunchOptions(CHROMIUM_PATH));
