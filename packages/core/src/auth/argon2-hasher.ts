import { hash, verify } from '@node-rs/argon2'
import type { PasswordHasher } from '../ports.js'

export interface Argon2Options {
  /** KiB of memory per hash (default 19456, OWASP's argon2id minimum). */
  memoryCost?: number
  /** Iterations (default 2). */
  timeCost?: number
}

/** argon2id through @node-rs/argon2 (memory-hard, prebuilt, no node-gyp). */
export function createArgon2Hasher (options: Argon2Options = {}): PasswordHasher {
  const params = { memoryCost: options.memoryCost ?? 19456, timeCost: options.timeCost ?? 2, parallelism: 1 }
  return {
    hash: async (password) => await hash(password, params),
    verify: async (stored, password) => {
      try {
        return await verify(stored, password)
      } catch {
        return false
      }
    }
  }
}
