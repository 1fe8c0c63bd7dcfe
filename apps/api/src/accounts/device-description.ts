/**
 * A coarse reading of a User-Agent header for the account page's list of sessions ("Firefox on
 * Windows"): enough for a person to tell their laptop from their phone, not a fingerprint. The
 * header is whatever the browser sent, so this is a guess; an unknown browser or system reads as
 * "A browser" or leaves the system out, and no header at all gives null. Own code, not a parsing
 * library: a few substring checks in a known order cover the browsers people use, and the full
 * header (the first 200 characters) is still returned beside it.
 */

/** Checked in this order: Edge and Opera also say Chrome, Chrome also says Safari. */
const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bcurl\//, 'curl'],
];

/** Checked in this order: Android also says Linux, iPhone also says Mac OS X. */
const SYSTEMS: readonly [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const firstMatch = (text: string, table: readonly [RegExp, string][]): string | undefined =>
  table.find(([pattern]) => pattern.test(text))?.[1];

export const describeDevice = (userAgent: string | null): string | null => {
  if (userAgent === null || userAgent.trim() === '') {
    return null;
  }
  const browser = /\bHeadlessChrome\//.test(userAgent)
    ? 'Headless Chrome'
    : firstMatch(userAgent, BROWSERS);
  const system = firstMatch(userAgent, SYSTEMS);
  if (browser === undefined && system === undefined) {
    return 'An unknown browser';
  }
  if (system === undefined) {
    return browser ?? 'An unknown browser';
  }
  return `${browser ?? 'A browser'} on ${system}`;
};
