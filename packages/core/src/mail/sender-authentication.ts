import { createRequire } from 'node:module'
import type { AuthenticationResults } from './mail.js'
import { domainOf } from './mail-headers.js'

const require = createRequire(import.meta.url)
let publicSuffixes: typeof import('tldts') | undefined

/**
 * The organizational domain (RFC 7489 §3.2: one label below the public
 * suffix, from the Public Suffix List through tldts): `mail.corp.example.co.uk`
 * -> `example.co.uk`. Loaded with the first mail that needs it.
 */
export function organizationalDomain (domain: string): string {
  publicSuffixes ??= require('tldts') as typeof import('tldts')
  const name = domain.trim().toLowerCase().replace(/\.$/, '')
  return publicSuffixes.getDomain(name, { allowPrivateDomains: false }) ?? name
}

/** Relaxed alignment (DMARC, RFC 7489 §3.1): both domains have the same organizational domain. */
export function aligned (fromDomain: string, authenticated: string): boolean {
  const a = fromDomain.trim().toLowerCase()
  const b = authenticated.trim().toLowerCase().replace(/^.*@/, '')
  if (a === '' || b === '') return false
  return a === b || organizationalDomain(a) === organizationalDomain(b)
}

/** Whether the `From:` address is vouched for by a trusted receiving server, and why (or why not). */
export interface SenderAuthentication {
  verified: boolean
  /** `dkim` or `spf` when verified. */
  method: 'dkim' | 'spf' | null
  reason: string
}

/**
 * Reads the Authentication-Results (RFC 8601) a trusted receiving server
 * added: only headers whose authserv-id is one of `trusted` count, and of
 * those only the topmost (the last one added, by the server nearest to us),
 * so results a sender wrote into their own mail are never read (RFC 8601 §5;
 * the receiving server should also strip them). Verified when it shows DKIM
 * passing for a `header.d` (or `header.i`) domain, or SPF passing for an
 * `smtp.mailfrom` domain, aligned in the relaxed sense with the `From:` domain.
 */
export function authenticateSender (fromAddress: string, results: AuthenticationResults[] | undefined, trusted: string[] | undefined): SenderAuthentication {
  const ids = new Set((trusted ?? []).map((id) => id.trim().toLowerCase()).filter((id) => id !== ''))
  if (ids.size === 0) return { verified: false, method: null, reason: 'no trusted authserv-id is configured (mail.trustedAuthServIds), so no Authentication-Results are read' }
  const header = (results ?? []).find((r) => ids.has(r.authservId.toLowerCase()))
  if (header === undefined) return { verified: false, method: null, reason: 'no Authentication-Results from a trusted server' }
  const fromDomain = domainOf(fromAddress.toLowerCase())
  for (const result of header.results) {
    if (result.result.toLowerCase() !== 'pass') continue
    const method = result.method.toLowerCase()
    if (method === 'dkim') {
      const domain = result.properties['header.d'] ?? result.properties['header.i']
      if (domain !== undefined && aligned(fromDomain, domain)) return { verified: true, method: 'dkim', reason: `DKIM pass for ${domain} (${header.authservId})` }
    } else if (method === 'spf') {
      const domain = result.properties['smtp.mailfrom']
      if (domain !== undefined && aligned(fromDomain, domain)) {
        return { verified: true, method: 'spf', reason: `SPF pass for ${domain} (${header.authservId})` }
      }
    }
  }
  return { verified: false, method: null, reason: `the Authentication-Results of ${header.authservId} show no DKIM or SPF pass aligned with ${fromDomain}` }
}
