/**
 * When each session credential was last used in this process (issue 27, docs/decisions.md
 * "Sessions"): a Map updated on every use, never a database write per request. The idle check reads
 * the later of this and the session's `last_seen_at` (from the key lookup, at most a few seconds
 * old), and a periodic flush writes the times to `account_sessions.last_seen_at`
 * (AccountsModule's flusher; slice 1's usage flusher could take it over), so other replicas see
 * the use within about ten seconds.
 */
export class SessionActivity {
  private readonly seenAt = new Map<string, number>();
  private readonly pending = new Map<string, number>();

  /** Records a use of the session at `nowMs`. */
  seen(sessionId: string, nowMs: number): void {
    this.seenAt.set(sessionId, nowMs);
    this.pending.set(sessionId, nowMs);
  }

  /** The last use this process saw, or 0. */
  lastSeen(sessionId: string): number {
    return this.seenAt.get(sessionId) ?? 0;
  }

  /** Forgets a session that ended. */
  forget(sessionId: string): void {
    this.seenAt.delete(sessionId);
    this.pending.delete(sessionId);
  }

  /** The uses not yet written, emptied: the flusher writes them in one statement. */
  drain(): Map<string, number> {
    const drained = new Map(this.pending);
    this.pending.clear();
    // Sessions unused for a day are dropped from memory; their end is decided by the database's time.
    const stale = Date.now() - 86_400_000;
    for (const [id, at] of this.seenAt) {
      if (at < stale) {
        this.seenAt.delete(id);
      }
    }
    return drained;
  }
}
