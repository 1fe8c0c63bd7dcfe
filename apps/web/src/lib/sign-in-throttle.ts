/**
 * Failed staff sign-ins, counted by the site before the API sees them. Every sign-in reaches the
 * API from the site's own address, and the API gives an address 60 failed authentications per 10
 * minutes before it refuses every key from it, the site's own included (docs/errors.md, "Failed
 * authentications"): unchecked, someone typing wrong keys at /staff/sign-in would take the public
 * site down. So the site refuses sign-ins itself, without calling the API, once a visitor has
 * failed PER_VISITOR times, or all visitors together SITE_WIDE times (half the API's budget), in
 * a window. In memory, per process: enough for the one site instance; more instances each keep
 * their own count, so keep SITE_WIDE × instances below the API's budget.
 */
export const SIGN_IN_THROTTLE = {
  windowMs: 10 * 60_000,
  perVisitor: 5,
  siteWide: 30,
} as const;

type TWindow = { startedAt: number; failures: number };

export class SignInThrottle {
  private readonly visitors = new Map<string, TWindow>();
  private site: TWindow = { startedAt: 0, failures: 0 };

  constructor(
    private readonly limits: {
      windowMs: number;
      perVisitor: number;
      siteWide: number;
    } = SIGN_IN_THROTTLE,
    private readonly now: () => number = Date.now,
  ) {}

  private current(window: TWindow | undefined): TWindow {
    const now = this.now();
    return window && now - window.startedAt < this.limits.windowMs
      ? window
      : { startedAt: now, failures: 0 };
  }

  /** Seconds until this visitor may try again, or 0 if they may try now. */
  secondsToWait(visitor: string): number {
    const site = this.current(this.site);
    const mine = this.current(this.visitors.get(visitor));
    const waits = [
      site.failures >= this.limits.siteWide ? site.startedAt : undefined,
      mine.failures >= this.limits.perVisitor ? mine.startedAt : undefined,
    ]
      .filter((startedAt): startedAt is number => startedAt !== undefined)
      .map((startedAt) => Math.ceil((startedAt + this.limits.windowMs - this.now()) / 1000));
    return waits.length > 0 ? Math.max(1, ...waits) : 0;
  }

  /** Counts a refused key (a 401 from the API) for the visitor and the site. */
  recordFailure(visitor: string): void {
    this.site = this.current(this.site);
    this.site.failures += 1;
    const mine = this.current(this.visitors.get(visitor));
    mine.failures += 1;
    this.visitors.set(visitor, mine);
    // Bounded: forget finished windows once there are many visitors.
    if (this.visitors.size > 10_000) {
      for (const [key, window] of this.visitors) {
        if (this.current(window) !== window) {
          this.visitors.delete(key);
        }
      }
    }
  }
}
