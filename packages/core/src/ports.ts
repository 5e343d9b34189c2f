/** Hashes and checks passwords. The default implementation is argon2id. */
export interface PasswordHasher {
  hash(password: string): Promise<string>
  verify(hash: string, password: string): Promise<boolean>
}

/** What a marketplace says about one purchase code. */
export interface PurchaseCodeStatus {
  /** The code belongs to a real purchase. */
  valid: boolean
  /** End of the purchase's support period (a Date, or a UTC datetime string), or null when unknown or none. */
  supportedUntil: Date | string | null
}

/**
 * Checks marketplace purchase codes (CONTRACT §15). Given to `createHelpdesk`
 * (or the plugin's `marketplace` option); without one, knowledge-base levels 3
 * and 4 are staff-only and categories' `purchase_verification` is not enforced.
 * Implementations may throw when the marketplace cannot be reached.
 */
export interface MarketplaceVerifier {
  verifyPurchaseCode(code: string): Promise<PurchaseCodeStatus>
}

/**
 * Where attachment files live: a local directory by default
 * (`createLocalFileStorage`), object storage for several instances.
 */
export interface FileStorage {
  /**
   * Stores the whole stream under a new key derived from `name` (a generated,
   * path-free name such as `<uuid>.png`) and returns the key and the bytes
   * written. If the stream fails (e.g. an upload over the size limit) it
   * rejects with that error and leaves nothing behind.
   */
  write(content: import('node:stream').Readable, name: string): Promise<{ key: string, size: number }>
  /** The stored bytes, or null when the key is unknown. */
  read(key: string): Promise<import('node:stream').Readable | null>
  /** Removes the file; a missing key is not an error. */
  delete(key: string): Promise<void>
}
