import type { Clock } from '../time.js'

export interface TokenCacheOptions {
  /** How long an entry is trusted at most, in milliseconds. Default 10 s; 0 switches the cache off. */
  ttlMs?: number
  /** Entries kept at most (the oldest go first). Default 10,000. */
  maxEntries?: number
}

interface Entry<V> { value: V, revision: number, expires: number }

/**
 * Reads a shared revision number for callers that arrived while another read
 * was already under way: they wait for the next read rather than reuse one
 * that started before them. So a revision a caller gets was read after it
 * asked (it reflects every change committed before that), while under load
 * one read serves every request that queued behind it.
 */
export class RevisionReader {
  private current: Promise<number> | null = null
  private next: Promise<number> | null = null

  constructor (private readonly fetch: () => Promise<number>) {}

  read (): Promise<number> {
    if (this.current === null) return this.begin()
    this.next ??= this.current.then(() => undefined, () => undefined).then(async () => {
      this.next = null
      return await this.begin()
    })
    return this.next
  }

  private begin (): Promise<number> {
    const reading: Promise<number> = this.fetch().finally(() => { if (this.current === reading) this.current = null })
    this.current = reading
    return reading
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
   * Either way one read of the database; null values are never cached.
   */
  async get (key: string, load: () => Promise<{ value: V | null, revision: number }>): Promise<V | null> {
    if (this.ttlMs <= 0) return (await load()).value
    const now = this.clock.now().getTime()
    const entry = this.entries.get(key)
    if (entry !== undefined) {
      if (entry.expires > now && await this.revisions.read() === entry.revision) return entry.value
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
