import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, startProcess } from '@pets/testing';
import { startLighthouse, type TLighthouse, type TPageRun } from './lighthouse';

const ROOT = resolve(__dirname, '..', '..', '..');

/** The issue's targets for every page (Lighthouse 12, mobile defaults). */
export const SITE_TARGETS = { score: 95, lcpMs: 2_500, longestTaskMs: 200 };

export type TSitePage = { name: string; path: string };

export type TPageResult = TSitePage & {
  runs: TPageRun[];
  /** Each measure's median over the runs, on its own. */
  median: Pick<TPageRun, 'score' | 'lcpMs' | 'tbtMs' | 'longestTaskMs' | 'scriptBytes'>;
};

export type TSiteReport = {
  startedAt: string;
  chromium: string;
  lighthouse: string;
  runsPerPage: number;
  /**
   * The machine's one-minute load average when the runs started and ended, and its cores:
   * Lighthouse's simulated timings scale what the browser measured, so a busy machine's tasks
   * come out longer; compare runs made under a similar load.
   */
  load: { start: number; end: number; cores: number };
  pages: TPageResult[];
};

export type TSiteOptions = {
  runs: number;
  outDir: string;
  log: (line: string) => void;
};

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/**
 * The four pages of the issue: the home page, the first animal it lists, that animal's apply form
 * (the home page lists available animals first) and staff sign-in.
 */
const findPages = async (siteUrl: string): Promise<TSitePage[]> => {
  const home = await fetch(siteUrl);
  const html = await home.text();
  const id = /href="\/pets\/(\d+)[?"]/.exec(html)?.[1];
  if (home.status !== 200 || !id) {
    throw new Error(`the home page (${home.status}) lists no animal to measure`);
  }
  return [
    { name: 'home', path: '/' },
    { name: 'animal page', path: `/pets/${id}` },
    { name: 'apply form', path: `/pets/${id}/apply` },
    { name: 'staff sign-in', path: '/staff/sign-in' },
  ];
};

const ms = (value: number) => `${Math.round(value)} ms`;
const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;
const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
const mark = (isMet: boolean) => (isMet ? '' : ' ✗');

export const siteMarkdown = (report: TSiteReport): string => {
  const rows = report.pages.map(({ name, path, median: m, runs }) =>
    [
      `${name} (\`${path.replace(/\d+/, '{id}')}\`)`,
      `${m.score}${mark(m.score >= SITE_TARGETS.score)}`,
      `${seconds(m.lcpMs)}${mark(m.lcpMs < SITE_TARGETS.lcpMs)}`,
      ms(m.tbtMs),
      `${ms(m.longestTaskMs)}${mark(m.longestTaskMs <= SITE_TARGETS.longestTaskMs)}`,
      kb(m.scriptBytes),
      runs.map((run) => run.score).join(', '),
      runs.every((run) => run.isBfcacheEligible) ? 'yes' : 'no',
    ].join(' | '),
  );
  const blockers = [
    ...new Set(report.pages.flatMap((page) => page.runs.flatMap((run) => run.bfcacheBlockers))),
  ];
  return [
    `Lighthouse ${report.lighthouse}, ${report.chromium}, mobile defaults (simulated slow 4G, 4× CPU slowdown); median of ${report.runsPerPage} runs per page, each measure on its own; load average ${report.load.start.toFixed(1)} at the start, ${report.load.end.toFixed(1)} at the end, on ${report.load.cores} cores. ✗: misses the target (score ≥ ${SITE_TARGETS.score}, LCP < ${SITE_TARGETS.lcpMs / 1000} s, no task over ${SITE_TARGETS.longestTaskMs} ms).`,
    '',
    '| page | score | LCP | TBT | longest task | JS | scores of the runs | bfcache |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
    '',
    blockers.length > 0 ? `Back/forward cache blocked by: ${blockers.join('; ')}.` : '',
  ].join('\n');
};

/**
 * `pnpm bench --site`: the site as `pnpm start` runs it (scripts/run-stack.mjs: the production
 * builds of the API and the site, the embedded database in a directory of its own, seeded), each
 * page measured `runs` times by Lighthouse; the table goes to `<outDir>/site/`.
 */
export const runSite = async ({ runs, outDir, log }: TSiteOptions): Promise<TSiteReport> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'pets-bench-site-'));
  const [apiPort, webPort] = [await freePort(), await freePort()];
  const siteUrl = `http://127.0.0.1:${webPort}`;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  const runDir = join(outDir, 'site', 'runs', stamp);
  await mkdir(runDir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(apiPort),
    WEB_PORT: String(webPort),
    DATA_DIR: dataDir,
  };
  // The embedded default, as a first `pnpm start` runs it; nothing of the API benchmark's setup.
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  log(`Starting the stack (pnpm start: scripts/run-stack.mjs) on ${siteUrl}, data in ${dataDir}.`);
  const stack = startProcess({
    name: 'stack',
    command: process.execPath,
    args: [join(ROOT, 'scripts', 'run-stack.mjs'), 'start'],
    cwd: ROOT,
    env,
    keepOutput: false,
    logFile: join(runDir, 'stack.log'),
  });
  let lighthouse: TLighthouse | undefined;
  const stop = async () => {
    await lighthouse?.close();
    // run-stack gives its own children 8 s; killed sooner, it would leave them running.
    await stack.stop(30_000);
    await rm(dataDir, { recursive: true, force: true });
  };
  const onSignal = () => {
    void stop().then(() => process.exit(1));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await stack.waitForHttp(siteUrl, { isReady: (status) => status === 200, timeoutMs: 600_000 });
    const pages = await findPages(siteUrl);
    lighthouse = await startLighthouse();
    const results: TPageResult[] = [];
    const loadAtStart = loadavg()[0] ?? 0;
    try {
      // One unmeasured load of each page first: Next.js compiles nothing in production, but the
      // API's and the site's first requests warm caches that a visitor would find warm.
      for (const page of pages) {
        await fetch(`${siteUrl}${page.path}`).then((response) => response.body?.cancel());
      }
      for (const page of pages) {
        const pageRuns: TPageRun[] = [];
        for (let index = 0; index < runs; index += 1) {
          const run = await lighthouse.run(`${siteUrl}${page.path}`);
          if (run.documentStatus !== 200) {
            throw new Error(`${page.path} answered ${run.documentStatus}: nothing to measure`);
          }
          log(
            `  ${page.name} run ${index + 1}: score ${run.score}, LCP ${seconds(run.lcpMs)}, TBT ${ms(run.tbtMs)}, longest task ${ms(run.longestTaskMs)}${run.longestTaskUrl ? ` (${run.longestTaskUrl.replace(siteUrl, '')})` : ''}`,
          );
          pageRuns.push(run);
        }
        results.push({
          ...page,
          runs: pageRuns,
          median: {
            score: median(pageRuns.map((run) => run.score)),
            lcpMs: median(pageRuns.map((run) => run.lcpMs)),
            tbtMs: median(pageRuns.map((run) => run.tbtMs)),
            longestTaskMs: median(pageRuns.map((run) => run.longestTaskMs)),
            scriptBytes: median(pageRuns.map((run) => run.scriptBytes)),
          },
        });
      }
    } finally {
      await lighthouse.close();
    }
    const report: TSiteReport = {
      startedAt: new Date().toISOString(),
      ...lighthouse.versions(),
      runsPerPage: runs,
      load: { start: loadAtStart, end: loadavg()[0] ?? 0, cores: availableParallelism() },
      pages: results,
    };
    const markdown = siteMarkdown(report);
    const json = `${JSON.stringify(report, null, 2)}\n`;
    await writeFile(join(runDir, 'results.json'), json);
    await writeFile(join(runDir, 'results.md'), `${markdown}\n`);
    await writeFile(join(outDir, 'site', 'latest.json'), json);
    await writeFile(join(outDir, 'site', 'latest.md'), `${markdown}\n`);
    log(`\n${markdown}\nWritten to ${runDir}`);
    return report;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await stop();
  }
};
