import { STACK_ENV, startStack, type TStacks } from './harness/stack';

/**
 * Starts the real stacks once for the whole run, at the same time: one for the screenshot walk
 * and one for every other test, so the two projects run side by side without meeting in one
 * database, one site's limits or one API's log. The returned function is the teardown (it stops
 * every process and drops the databases, whether the tests passed or not).
 */
const globalSetup = async () => {
  const started = await Promise.allSettled([startStack(), startStack('screenshots')]);
  const running = started.flatMap((result) =>
    result.status === 'fulfilled' ? [result.value] : [],
  );
  const stopAll = async () => {
    await Promise.all(running.map(({ stop }) => stop()));
  };
  const [site, screenshots] = started;
  if (site?.status !== 'fulfilled' || screenshots?.status !== 'fulfilled') {
    await stopAll();
    throw started.find((result) => result.status === 'rejected')?.reason;
  }
  const stacks: TStacks = { site: site.value.stack, screenshots: screenshots.value.stack };
  process.env[STACK_ENV] = JSON.stringify(stacks);
  for (const [project, { stack, timings }] of [
    ['site', site.value],
    ['screenshots', screenshots.value],
  ] as const) {
    process.stdout.write(
      `[e2e] ${project} stack ready (${timings.join(', ')}): API ${stack.apiUrl}, ` +
        `site ${stack.siteUrl}, database ${stack.databaseName}\n`,
    );
  }
  return stopAll;
};

export default globalSetup;
