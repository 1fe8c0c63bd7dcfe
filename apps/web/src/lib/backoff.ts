/**
 * The site's whole audience shares one API key. Once the API has answered 429, every further call
 * before `Retry-After` has passed would be refused too, and a key that keeps sending while limited
 * gets banned (see the README's rate-limit section): so the site stops calling until then and
 * answers "rate limited" itself, with the seconds that are left.
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
