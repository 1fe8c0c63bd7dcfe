import { CHROMIUM_ARGS, DEFAULT_CHROMIUM_PATH } from '@pets/testing';

/** What one Lighthouse run of one page says, in the units the targets use. */
export type TPageRun = {
  /** 0 to 100. */
  score: number;
  lcpMs: number;
  tbtMs: number;
  /** The longest main-thread task Lighthouse lists (it lists those over 50 ms); 0 when none. */
  longestTaskMs: number;
  /** The script that longest task ran, when Lighthouse attributes it to one. */
  longestTaskUrl: string | null;
  /** JavaScript the page downloaded (bytes over the wire). */
  scriptBytes: number;
  /** LCP split into Lighthouse's phases (TTFB, load delay, load time, render delay), in ms. */
  lcpPhases: Record<string, number>;
  lcpElement: string | null;
  /** Whether Lighthouse's back/forward cache audit passed, and why not when it did not. */
  isBfcacheEligible: boolean;
  bfcacheBlockers: string[];
  /** The main document's HTTP status: anything but 200 means the page was not measured. */
  documentStatus: number | null;
};

type TAuditDetails = {
  type?: string;
  items?: Record<string, unknown>[];
};

type TAudit = { score: number | null; numericValue?: number; details?: TAuditDetails };

const itemsOf = (audit: TAudit | undefined): Record<string, unknown>[] =>
  audit?.details?.items ?? [];

/** A launched Chromium that Lighthouse drives, one page load at a time. */
export type TLighthouse = {
  run: (url: string) => Promise<TPageRun>;
  /** Lighthouse's version and the browser's, once a run has reported them. */
  versions: () => { lighthouse: string; chromium: string };
  close: () => Promise<void>;
};

/**
 * Debian's Chromium, headless with the flags of every browser test here, driven by Lighthouse's
 * Node API with its defaults: the mobile form factor, simulated slow 4G and a 4× slower CPU, the
 * performance category only. Lighthouse clears the page's storage and cache before each run.
 */
export const startLighthouse = async (
  chromePath: string = DEFAULT_CHROMIUM_PATH,
): Promise<TLighthouse> => {
  // Both are ES modules only; this package compiles to CommonJS.
  const { launch } = await import('chrome-launcher');
  const { default: lighthouse } = await import('lighthouse');
  const chrome = await launch({
    chromePath,
    chromeFlags: [...CHROMIUM_ARGS],
    logLevel: 'silent',
  });
  const versions = { lighthouse: '', chromium: '' };
  let isClosed = false;
  const run = async (url: string): Promise<TPageRun> => {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    });
    if (!result) {
      throw new Error(`Lighthouse returned nothing for ${url}`);
    }
    const { lhr } = result;
    if (lhr.runtimeError) {
      throw new Error(`Lighthouse could not measure ${url}: ${lhr.runtimeError.message}`);
    }
    versions.lighthouse = lhr.lighthouseVersion;
    versions.chromium =
      /(?:Headless)?Chrome\/[\d.]+/.exec(lhr.environment.hostUserAgent)?.[0] ?? '';
    const audits = lhr.audits as Record<string, TAudit | undefined>;
    const tasks = itemsOf(audits['long-tasks']).map((item) => ({
      duration: Number(item.duration ?? 0),
      url: typeof item.url === 'string' ? item.url : null,
    }));
    const longest = tasks.reduce<{ duration: number; url: string | null }>(
      (max, task) => (task.duration > max.duration ? task : max),
      { duration: 0, url: null },
    );
    const scripts = itemsOf(audits['resource-summary']).find(
      (item) => item.resourceType === 'script',
    );
    // The LCP element audit holds two tables: the element, then its phases.
    const lcpTables = (audits['largest-contentful-paint-element']?.details?.items ?? []) as {
      items?: Record<string, unknown>[];
    }[];
    const lcpNode = lcpTables[0]?.items?.[0]?.node as { snippet?: string } | undefined;
    const lcpPhases = Object.fromEntries(
      (lcpTables[1]?.items ?? []).map((phase) => [String(phase.phase), Number(phase.timing ?? 0)]),
    );
    const bfcache = audits['bf-cache'];
    const document = itemsOf(audits['network-requests']).find(
      (item) => item.resourceType === 'Document',
    );
    return {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcpMs: audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
      tbtMs: audits['total-blocking-time']?.numericValue ?? Number.NaN,
      longestTaskMs: longest.duration,
      longestTaskUrl: longest.url,
      scriptBytes: Number(scripts?.transferSize ?? 0),
      lcpPhases,
      lcpElement: lcpNode?.snippet ?? null,
      isBfcacheEligible: bfcache?.score === 1,
      bfcacheBlockers: itemsOf(bfcache).map((item) => String(item.reason ?? '')),
      documentStatus: document ? Number(document.statusCode) : null,
    };
  };
  return {
    run,
    versions: () => ({ ...versions }),
    close: async () => {
      // Once only: the signal handler and the run's own end may both ask.
      if (!isClosed) {
        isClosed = true;
        chrome.kill();
      }
    },
  };
};
