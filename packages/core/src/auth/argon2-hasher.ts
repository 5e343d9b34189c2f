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
    // The native module loads with the first hash or check, not at start-up (issue #14).
    hash: async (password) => await (await import('@node-rs/argon2')).hash(password, params),
    verify: async (stored, password) => {
      const { verify } = await import('@node-rs/argon2')
      try {
        return await verify(stored, password)
      } catch {
        return false
      }
    }
  }
}
