import { Header } from '@pets/contract';
import type { TDecision, TWindowState } from './rate-limit.types';

const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/**
 * The window the X-RateLimit-* headers describe. Refused: the exhausted window that resets last
 * (the one Retry-After waits for). Admitted: the window with the smallest share of its quota left,
 * on a tie the one that resets last.
 */
export const reportedWindow = (decision: TDecision): TWindowState | undefined => {
  const windows = [...decision.windows];
  if (decision.outcome !== 'allowed') {
    const exhausted = windows.filter((window) => window.used >= window.limit);
    const candidates = exhausted.length > 0 ? exhausted : windows;
    return candidates.sort((a, b) => b.resetInMs - a.resetInMs)[0];
  }
  return windows.sort(
    (a, b) =>
      (a.limit - a.used) / a.limit - (b.limit - b.used) / b.limit || b.resetInMs - a.resetInMs,
  )[0];
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
    [Header.rateLimitPolicy]: decision.windows
      .map((each) => `"${each.name}";q=${each.limit};w=${Math.round(each.ttlMs / 1000)}`)
      .join(', '),
    // `t` belongs to the named policy, whose window is `w` seconds: during a ban it stays that
    // window's reset (a ban is no quota policy); Retry-After and X-RateLimit-Reset give the ban's end.
    [Header.rateLimit]: `"${window.name}";r=${remaining};t=${seconds(window.resetInMs)}`,
  };
  if (retryAfter !== null) {
    headers[Header.retryAfter] = String(retryAfter);
  }
  return headers;
};
