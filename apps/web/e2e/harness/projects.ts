/**
 * How many workers run the `site` project at once (playwright.config.ts); one more runs the
 * screenshot walk beside them. Each worker has a stack of its own (global-setup.ts), by its
 * parallel index: the slot it runs in, 0 to WORKERS - 1, kept by a worker that replaces it.
 *
 * One, for now: the suite is bound by the CPU its browsers take, not by waiting. Alone on a
 * 2-core machine, one worker for everything took 15.8 minutes (the tests' own times add up to
 * 916 s); three workers (two site workers and the walk) took 14.2, each test 2.2 times slower
 * (2,059 s in all) at a load near 15, and beside the API's suite they made timing-bound tests
 * fail on both sides (docs/development.md, "How long the tests take").
 */
export const SITE_WORKERS = 1;
export const WORKERS = SITE_WORKERS + 1;
