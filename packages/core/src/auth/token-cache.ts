import type { Clock } from '../time.js'

export interface TokenCacheOptions {
  /** How long an entry is trusted at most, in milliseconds. Default 10 s; 0 switches the cache off. */
  ttlMs?: number
  /** Entries kept at most (the oldest go first). Default 10,000. */
  maxEntries?: number
}

interface Entry<V> { value: V, revision: number, expires: number }

/**
 * Reads a shared revision number for many callers at once, never handing a
 * caller a read that started before it asked: a read is started only after
 * the callers it serves have asked, and a caller arriving while a read is
 * under way waits for the next one. The next read gathers the callers of the
 * current turn of the event loop (it starts in `setImmediate`, after the
 * requests whose bytes arrived together have all been parsed), or all those
 * that queued behind a read in flight. So a revision a caller gets reflects
 * every change committed before it asked, and under load one read serves
 * every request of a turn: on SQLite, where a read is synchronous and would
 * otherwise be one statement per request, as on PostgreSQL.
 */
export class RevisionReader {
  /** The read under way, if any: callers arriving now must not use it. */
  private inFlight: Promise<number> | null = null
  /** The next read, not started yet: every caller until it starts joins it. */
  private gathering: Promise<number> | null = null

  constructor (private readonly fetch: () => Promise<number>) {}

  read (): Promise<number> {
    this.gathering ??= this.next()
    return this.gathering
  }

  private async next (): Promise<number> {
    const before = this.inFlight
    if (before === null) await new Promise((resolve) => setImmediate(resolve))
    else await before.then(() => undefined, () => undefined)
    this.gathering = null
    const reading = this.fetch()
    this.inFlight = reading
    try {
      return await reading
    } finally {
      if (this.inFlight === reading) this.inFlight = null
    }
  }
}

/**
 * Token lookups, cached briefly. An entry is used only while the store's
 * auth revision (bumped in the same transaction as any token revocation or
 * change to a user: logout, token deletion, ban, password change, deletion)
 * is the one it was cached under, so a revoked token stops working on the
 * very next request, on every instance sharing the database. Misses (unknown
 * or refused tokens) are never cached.
 */
export class TokenCache<V> {
  private readonly entries = new Map<string, Entry<V>>()
  private readonly ttlMs: number
  private readonly maxEntries: number

  constructor (private readonly revisions: RevisionReader, private readonly clock: Clock, options: TokenCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 10_000
    this.maxEntries = options.maxEntries ?? 10_000
  }

  /**
   * The cached value for `key` if the auth revision has not moved since it
   * was loaded, else `load()`'s: the value and the revision read with it, in
   * one statement (so a change committed in between cannot slip through).
   * Either way one read of the database; null values are never cached. A
   * cached value `usable` refuses (an expired session, as this entry saw it)
   * is loaded again.
   */
  async get (key: string, load: () => Promise<{ value: V | null, revision: number }>, usable: (value: V) => boolean = () => true): Promise<V | null> {
    if (this.ttlMs <= 0) return (await load()).value
    const now = this.clock.now().getTime()
    const entry = this.entries.get(key)
    if (entry !== undefined) {
      if (entry.expires > now && usable(entry.value) && await this.revisions.read() === entry.revision) return entry.value
      this.entries.delete(key)
    }
    const { value, revision } = await load()
    if (value !== null) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string)
      this.entries.set(key, { value, revision, expires: now + this.ttlMs })
    }
    return value
  }

  clear (): void {
    this.entries.clear()
  }
}
