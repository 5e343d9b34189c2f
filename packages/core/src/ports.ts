/** Hashes and checks passwords. The default implementation is argon2id. */
export interface PasswordHasher {
  hash(password: string): Promise<string>
  verify(hash: string, password: string): Promise<boolean>
}
