/** A counter of one tracker: its count, when it expires, and (strikes) when it was first counted. */
export type TCounter = { count: number; expiresAt: number; since?: number };

/** The tracker of a counter key `<tracker>:<name>` (a tracker may contain colons, a name does not). */
const split = (key: string): [string, string] => {
  const at = key.lastIndexOf(':');
  return at < 0 ? [key, ''] : [key.slice(0, at), key.slice(at + 1)];
};

/**
 * The memory store's counters, keyed `<tracker>:<name>` like a Map, holding at most `maxTrackers`
 * trackers (client addresses, keys). Adding one more evicts the least recently used tracker with
 * all its counters: that address or key starts afresh (an empty window, no strikes, no ban), as it
 * would after its windows expired. Bounding the trackers bounds the memory, whatever the number of
 * distinct addresses sending.
 */
export class TrackerCounters {
  /** Map order is recency order: a tracker is moved to the end whenever it is used. */
  private readonly trackers = new Map<string, Map<string, TCounter>>();
  private evicted = 0;

  constructor(private readonly maxTrackers: number) {}

  get(key: string): TCounter | undefined {
    const [tracker, name] = split(key);
    const counters = this.trackers.get(tracker);
    if (!counters) {
      return undefined;
    }
    this.touch(tracker, counters);
    return counters.get(name);
  }

  set(key: string, counter: TCounter): void {
    const [tracker, name] = split(key);
    let counters = this.trackers.get(tracker);
    if (counters) {
      this.touch(tracker, counters);
    } else {
      while (this.trackers.size >= this.maxTrackers) {
        const oldest = this.trackers.keys().next().value as string;
        this.trackers.delete(oldest);
        this.evicted += 1;
      }
      counters = new Map();
      this.trackers.set(tracker, counters);
    }
    counters.set(name, counter);
  }

  delete(key: string): void {
    const [tracker, name] = split(key);
    const counters = this.trackers.get(tracker);
    counters?.delete(name);
    if (counters?.size === 0) {
      this.trackers.delete(tracker);
    }
  }

  /** Drops expired counters, and trackers left with none. */
  sweep(now: number): void {
    for (const [tracker, counters] of this.trackers) {
      for (const [name, counter] of counters) {
        if (counter.expiresAt <= now) {
          counters.delete(name);
        }
      }
      if (counters.size === 0) {
        this.trackers.delete(tracker);
      }
    }
  }

  /** How many trackers are held, and how many were evicted to stay within the cap. */
  stats(): { trackers: number; evicted: number } {
    return { trackers: this.trackers.size, evicted: this.evicted };
  }

  private touch(tracker: string, counters: Map<string, TCounter>): void {
    if (this.trackers.size > 1) {
      this.trackers.delete(tracker);
      this.trackers.set(tracker, counters);
    }
  }
}
