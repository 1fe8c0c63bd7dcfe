/**
 * How many workers run the `site` project at once (playwright.config.ts); one more runs the
 * screenshot walk beside them. Each worker has a stack of its own (global-setup.ts), by its
 * parallel index: the slot it runs in, 0 to WORKERS - 1, kept by a worker that replaces it.
 */
export const SITE_WORKERS = 2;
export const WORKERS = SITE_WORKERS + 1;
