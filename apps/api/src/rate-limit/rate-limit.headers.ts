import { Header } from '@pets/contract';
import type { TDecision, TWindowSpec, TWindowState } from './rate-limit.types';

const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** The smaller share of its quota left first; on a tie, the one that resets last. */
const byShareLeft = (a: TWindowState, b: TWindowState): number =>
  (a.limit - a.used) / a.limit - (b.limit - b.used) / b.limit || b.resetInMs - a.resetInMs;

/**
 * The window the X-RateLimit-* headers describe. Refused: the exhausted window that resets last
 * (the one Retry-After waits for). Admitted: the window with the smallest share of its quota left,
 * on a tie the one that resets last.
 */
export const reportedWindow = (decision: TDecision): TWindowState | undefined => {
  if (decision.outcome !== 'allowed') {
    const windows = [...decision.windows];
    const exhausted = windows.filter((window) => window.used >= window.limit);
    const candidates = exhausted.length > 0 ? exhausted : windows;
    return candidates.sort((a, b) => b.resetInMs - a.resetInMs)[0];
  }
  // Every admitted request: the first window a stable sort by `byShareLeft` would put first,
  // found without copying and sorting the list.
  let reported: TWindowState | undefined;
  for (const window of decision.windows) {
    if (reported === undefined || byShareLeft(window, reported) < 0) {
      reported = window;
    }
  }
  return reported;
};

/** Seconds a refused caller must wait: until the ban ends, or until the blocking window resets. */
export const retryAfterSeconds = (decision: TDecision): number | null => {
  if (decision.outcome === 'banned') {
    return seconds(decision.banEndsInMs);
  }
  if (decision.outcome === 'limited') {
    return seconds(reportedWindow(decision)?.resetInMs ?? 1000);
  }
  return null;
};

/**
 * The RateLimit-Policy field of some windows: the same few texts on almost every response (one
 * per plan, or per Enterprise key's numbers), kept (up to POLICY_CACHE_SIZE, most recent first)
 * and found by comparing the windows' numbers, which allocates nothing.
 */
const POLICY_CACHE_SIZE = 16;
const policies: { windows: TWindowSpec[]; text: string }[] = [];
const isSamePolicy = (a: readonly TWindowSpec[], b: readonly TWindowSpec[]): boolean => {
  if (a.length !== b.length) {
    return false;
  }
  for (let index = 0; index < a.length; index += 1) {
    const x = a[index];
    const y = b[index];
    if (x?.name !== y?.name || x?.limit !== y?.limit || x?.ttlMs !== y?.ttlMs) {
      return false;
    }
  }
  return true;
};
const policyOf = (windows: readonly TWindowSpec[]): string => {
  for (const each of policies) {
    if (isSamePolicy(each.windows, windows)) {
      return each.text;
    }
  }
  const text = windows
    .map((each) => `"${each.name}";q=${each.limit};w=${Math.round(each.ttlMs / 1000)}`)
    .join(', ');
  policies.unshift({
    windows: windows.map(({ name, limit, ttlMs }) => ({ name, limit, ttlMs })),
    text,
  });
  policies.length = Math.min(policies.length, POLICY_CACHE_SIZE);
  return text;
};

/** The rate-limit headers of a response, legacy X-RateLimit-* and IETF draft fields alike. */
export const rateLimitHeaders = (decision: TDecision, now = Date.now()): Record<string, string> => {
  const window = reportedWindow(decision);
  if (!window) {
    return {};
  }
  const retryAfter = retryAfterSeconds(decision);
  const remaining = decision.outcome === 'allowed' ? Math.max(0, window.limit - window.used) : 0;
  const resetInMs = decision.outcome === 'banned' ? decision.banEndsInMs : window.resetInMs;
  const headers: Record<string, string> = {
    [Header.rateLimitLimit]: String(window.limit),
    [Header.rateLimitRemaining]: String(remaining),
    [Header.rateLimitReset]: String(Math.ceil((now + resetInMs) / 1000)),
    [Header.rateLimitPolicy]: policyOf(decision.windows),
    // `t` belongs to the named policy, whose window is `w` seconds: during a ban it stays that
    // window's reset (a ban is no quota policy); Retry-After and X-RateLimit-Reset give the ban's end.
    [Header.rateLimit]: `"${window.name}";r=${remaining};t=${seconds(window.resetInMs)}`,
  };
  if (retryAfter !== null) {
    headers[Header.retryAfter] = String(retryAfter);
  }
  return headers;
};
