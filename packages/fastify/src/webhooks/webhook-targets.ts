import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

/**
 * Whether a webhook may be sent to `address`: public unicast only. Loopback,
 * private, link-local, unique-local, carrier-grade NAT, multicast,
 * unspecified and reserved ranges are refused (IPv4-mapped IPv6 as IPv4).
 */
export function isPublicAddress (address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  return ipaddr.process(address).range() === 'unicast'
}

export class WebhookTargetError extends Error {}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/**
 * A `dns.lookup` for the delivery agent: resolves, refuses the connection
 * when any address is not public (unless private targets are allowed), and
 * hands the socket exactly the checked addresses, so the connection goes to
 * an address that was checked (no second resolution to rebind).
 */
export function guardedLookup (allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean, family?: number | string } | undefined, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true, family: Number(options?.family ?? 0) as 0 | 4 | 6 }, (error, addresses) => {
      if (error !== null) { callback(error, []); return }
      const refused = addresses.find((a) => !allowPrivate && !isPublicAddress(a.address))
      if (refused !== undefined || addresses.length === 0) {
        callback(Object.assign(new WebhookTargetError(`${hostname} resolves to ${refused?.address ?? 'nothing'}, which is not a public address.`), { code: 'EHELPDESKPRIVATE' }), [])
        return
      }
      if (options?.all === true) callback(null, addresses)
      else callback(null, addresses[0]!.address, addresses[0]!.family)
    })
  }
}

/** Resolves the URL's host; throws WebhookTargetError when it is not a public address (or cannot be resolved). */
export async function checkWebhookTarget (url: string, allowPrivate: boolean): Promise<void> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '')
  if (allowPrivate) return
  if (isIP(host) !== 0) {
    if (!isPublicAddress(host)) throw new WebhookTargetError(`${host} is not a public address.`)
    return
  }
  await new Promise<void>((resolve, reject) => {
    guardedLookup(false)(host, { all: true }, (error) => {
      if (error === null) resolve()
      else reject(error instanceof WebhookTargetError ? error : new WebhookTargetError(`${host} could not be resolved.`))
    })
  })
}
