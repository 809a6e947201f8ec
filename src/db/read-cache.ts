// A short-lived in-process cache of rows read on (nearly) every request, kept true by the
// change feed: a message evicts what it names, '*' evicts everything, and nothing is served
// while the feed is not live. A read that started before an eviction is not stored after it
// (the generation check), so a row loaded just before its change commits cannot linger.
import { type ChangeFeed, EVERYTHING } from './change-feed';

interface Entry<V> {
  value: V;
  tag: string;
  expiresAt: number;
}

export class ReadCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly topics: Set<string>;
  private generation = 0;

  constructor(
    private readonly feed: ChangeFeed,
    // The messages that evict an entry: `<topic>:<tag>` (e.g. company:<id>), for each topic.
    topics: string | string[],
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {
    this.topics = new Set(typeof topics === 'string' ? [topics] : topics);
    feed.subscribe((payload) => this.hear(payload));
  }

  // The cached value of `key`, else `load()` (stored under `tagOf(value)` when the feed is live).
  async get(key: string, load: () => Promise<V | undefined>, tagOf: (value: V) => string): Promise<V | undefined> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now && this.feed.live) {
      const settling = this.feed.settled();
      if (!settling) return hit.value;
      await settling;
      // Still there and fresh once pending messages were heard.
      const after = this.entries.get(key);
      if (after === hit && this.feed.live) return hit.value;
    }
    const generation = this.generation;
    const value = await load();
    if (value === undefined) this.entries.delete(key);
    else this.store(key, value, tagOf(value), generation);
    return value;
  }

  // Stores a value read elsewhere (a join that carried it), if nothing was evicted since
  // `generation` (from `mark()` before the read).
  store(key: string, value: V, tag: string, generation: number): void {
    if (generation !== this.generation || !this.feed.live) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, tag, expiresAt: Date.now() + this.ttlMs });
  }

  mark(): number {
    return this.generation;
  }

  private hear(payload: string): void {
    if (payload === EVERYTHING) {
      this.generation++;
      return this.entries.clear();
    }
    const separator = payload.indexOf(':');
    if (!this.topics.has(payload.slice(0, separator))) return;
    this.generation++;
    const tag = payload.slice(separator + 1);
    for (const [key, entry] of this.entries) if (entry.tag === tag) this.entries.delete(key);
  }
}
