/**
 * The site's per-visitor limits: how many of each thing one visitor (one address, as the edge
 * decides it) may do in a window, and the one counted per email address instead (`apply-email`).
 * Pure: the numbers, their names and the VISITOR_LIMITS override; limiter.ts enforces them.
 */
export const VISITOR_LIMIT_NAMES = [
  'page',
  'form',
  'sign-in',
  'sign-up',
  'reset',
  'lookup',
  'links',
  'apply',
  'apply-day',
  'apply-email',
  'apply-token',
  'saved-search',
  'passkey',
] as const;
export type TLimitName = (typeof VISITOR_LIMIT_NAMES)[number];

/** At most `points` in `seconds`, the window starting with the first. */
export type TLimit = { points: number; seconds: number };
export type TVisitorLimits = Record<TLimitName, TLimit>;

export const DEFAULT_VISITOR_LIMITS: TVisitorLimits = {
  /** Page views and link prefetches (GET/HEAD) of one visitor: a brisk reader uses a tenth. */
  page: { points: 300, seconds: 60 },
  /** Form posts (every server action) of one visitor: staff moving photos about stay well under. */
  form: { points: 60, seconds: 60 },
  /**
   * Wrong passwords of one visitor at /staff/sign-in and /developers/sign-in (the API also throttles per account, and per
   * account and visitor).
   */
  'sign-in': { points: 5, seconds: 600 },
  /** Developer accounts signed up by one visitor (each sends a verify email). */
  'sign-up': { points: 5, seconds: 3600 },
  /** Password reset and verify links asked for by one visitor. */
  reset: { points: 10, seconds: 3600 },
  /** Application status lookups (reference + email) of one visitor. */
  lookup: { points: 10, seconds: 600 },
  /**
   * "Email me my application links" requests of one visitor (the API also sends one address at
   * most ORDER_LINK_EMAILS_PER_HOUR of those emails, whoever asks).
   */
  links: { points: 5, seconds: 3600 },
  /**
   * Applications sent by one visitor in an hour: a household going through the animals in one
   * sitting (one per animal they would like to meet) stays under it; a script does not get far.
   */
  apply: { points: 10, seconds: 3600 },
  /** Applications sent by one visitor in a day: several households behind one address included. */
  'apply-day': { points: 30, seconds: 86_400 },
  /**
   * Applications made with one email address in a day, whoever sends them: bounds what one
   * address can be signed up for (each application emails it and the store) from many visitors.
   * The API's rule of one open application per address and animal stays besides.
   */
  'apply-email': { points: 10, seconds: 86_400 },
  /**
   * An apply form's token pays for its application once: a double click or a resent form (the
   * same token, one application for the API) costs nothing more.
   */
  'apply-token': { points: 1, seconds: 86_400 },
  /**
   * Searches saved by one visitor ("email me when a new animal matches"; each sends a confirmation
   * email; the API also limits each address, SAVED_SEARCH_LIMITS).
   */
  'saved-search': { points: 5, seconds: 3600 },
  /**
   * Passkey sign-ins started by one visitor (each asks the API for a challenge it keeps 5
   * minutes; the API also counts failed passkey sign-ins per visitor).
   */
  passkey: { points: 30, seconds: 600 },
};

const MAX_POINTS = 10_000_000;
const MAX_SECONDS = 7 * 86_400;

/**
 * VISITOR_LIMITS: comma-separated `name=points/seconds` overrides of the defaults, e.g.
 * `page=600/60,sign-in=10/600`.
 */
export const parseVisitorLimits = (
  value: string | undefined,
): { ok: true; value: TVisitorLimits } | { ok: false; error: string } => {
  const limits: TVisitorLimits = { ...DEFAULT_VISITOR_LIMITS };
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const match = /^([a-z-]+)=(\d+)\/(\d+)$/.exec(entry);
    const name = match?.[1] as TLimitName | undefined;
    const points = Number(match?.[2]);
    const seconds = Number(match?.[3]);
    if (
      !match ||
      name === undefined ||
      !VISITOR_LIMIT_NAMES.includes(name) ||
      points < 1 ||
      points > MAX_POINTS ||
      seconds < 1 ||
      seconds > MAX_SECONDS
    ) {
      return {
        ok: false,
        error: `must be name=points/seconds pairs separated by commas, names among ${VISITOR_LIMIT_NAMES.join(', ')} (not "${entry}")`,
      };
    }
    limits[name] = { points, seconds };
  }
  return { ok: true, value: limits };
};
