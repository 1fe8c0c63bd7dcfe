/**
 * Once the API has answered 429 for a visitor, every further call for them before `Retry-After`
 * has passed would be refused too, and a caller that keeps sending while limited gets banned (see
 * docs/api.md, "Rate limits and bans"): so the site stops calling for that visitor until then and
 * answers "rate limited" itself, with the seconds that are left. lib/api.ts keeps one per visitor.
 */
export class Backoff {
  private blockedUntil = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds left to wait (at least 1), or 0 when calls may go out. */
  secondsLeft(): number {
    const left = this.blockedUntil - this.now();
    return left > 0 ? Math.max(1, Math.ceil(left / 1000)) : 0;
  }

  /** The API said to wait this long. */
  holdFor(seconds: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, this.now() + seconds * 1000);
  }
}
