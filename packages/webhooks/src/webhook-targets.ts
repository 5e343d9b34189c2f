import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { isIP } from 'node:net'
import { webhookUrlProblem } from '@helpdesk/core'
import ipaddr from 'ipaddr.js'

type IPv4 = ipaddr.IPv4
type IPv6 = ipaddr.IPv6

/** Global unicast IPv6 (RFC 4291): everything outside it is reserved, special or unassigned. */
const GLOBAL_UNICAST: [IPv6, number] = [ipaddr.IPv6.parse('2000::'), 3]

function ipv4Of (high: number, low: number): IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff])
}

/**
 * The IPv4 addresses an IPv6 address carries, for the forms a network may
 * route to them; null when it carries none. An empty list: a form whose
 * IPv4 cannot be told (refused).
 *
 * - IPv4-mapped `::ffff:a.b.c.d` and IPv4-translated `::ffff:0:a.b.c.d` (RFC 6145);
 * - IPv4-compatible `::a.b.c.d` (deprecated; `::` and `::1` give 0.0.0.0 and 0.0.0.1, refused);
 * - NAT64 `64:ff9b::a.b.c.d` (RFC 6052); the local-use `64:ff9b:1::/48` (RFC 8215) puts the IPv4
 *   where its operator chose, and is never public: refused whole;
 * - 6to4 `2002:AABB:CCDD::/48` (RFC 3056): the IPv4 in bits 16-48;
 * - Teredo `2001:0:SSSS:SSSS:flags:port:CCCC:CCCC` (RFC 4380): the server's IPv4 in bits 32-64 and
 *   the client's in the last 32, inverted. Both must be public.
 */
export function embeddedIPv4 (address: IPv6): IPv4[] | null {
  const [a, b, c, d, e, f, g, h] = address.parts as [number, number, number, number, number, number, number, number]
  if (a === 0 && b === 0 && c === 0 && d === 0) {
    if (e === 0 && (f === 0xffff || f === 0)) return [ipv4Of(g, h)]
    if (e === 0xffff && f === 0) return [ipv4Of(g, h)]
    return null
  }
  if (a === 0x64 && b === 0xff9b) {
    if (c === 0 && d === 0 && e === 0 && f === 0) return [ipv4Of(g, h)]
    if (c === 1) return []
    return null
  }
  if (a === 0x2002) return [ipv4Of(b, c)]
  if (a === 0x2001 && b === 0) return [ipv4Of(c, d), ipv4Of(g ^ 0xffff, h ^ 0xffff)]
  return null
}

function isPublicIPv4 (address: IPv4): boolean {
  return address.range() === 'unicast'
}

/**
 * Whether a webhook may be sent to `address`: public unicast only. Loopback,
 * private, link-local, unique-local, carrier-grade NAT, multicast,
 * unspecified, documentation and other reserved ranges are refused, and so is
 * IPv6 outside global unicast (`2000::/3`). An IPv6 address that embeds an
 * IPv4 one (mapped, compatible, translated, NAT64, 6to4, Teredo: see
 * `embeddedIPv4`) is judged by that IPv4 address, so `[::127.0.0.1]` or
 * `[::a9fe:a9fe]` (169.254.169.254) is refused like the IPv4 address itself.
 */
export function isPublicAddress (address: string): boolean {
  if (isIP(address) === 0) return false
  const parsed = ipaddr.parse(address)
  if (parsed.kind() === 'ipv4') return isPublicIPv4(parsed as IPv4)
  const v6 = parsed as IPv6
  const embedded = embeddedIPv4(v6)
  if (embedded !== null) return embedded.length > 0 && embedded.every(isPublicIPv4)
  return v6.match(GLOBAL_UNICAST) && v6.range() === 'unicast'
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

/**
 * Resolves the URL's host; throws WebhookTargetError when it is not a public
 * address (or cannot be resolved). A URL the service refuses anyway (not
 * http or https, credentials, too long: `webhookUrlProblem`) is not looked
 * up: the service's own error names what is wrong with it.
 */
export async function checkWebhookTarget (url: string, allowPrivate: boolean): Promise<void> {
  if (allowPrivate || webhookUrlProblem(url) !== null) return
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '')
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
