import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { checkWebhookTarget, isPublicAddress, WebhookTargetError } from '../src/webhook-targets.js'

/*
 * Property tests of the webhook address guard, against tables written here
 * from the IANA special-purpose registries (not from the library the guard
 * uses): an address in a reserved range is refused, as are the IPv6 forms
 * that embed one; public addresses, and the embeddings of public IPv4
 * addresses, are accepted.
 */

/** IPv4 special-purpose and other non-public ranges (RFC 6890 and the IANA registry), as [first address, prefix length]. */
const RESERVED_IPV4: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4] // reserved, and 255.255.255.255 broadcast
]

const toInt = (dotted: string): number => dotted.split('.').reduce((n, octet) => n * 256 + Number(octet), 0)
const toDotted = (n: number): string => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.')
const inRange = (n: number, [first, bits]: [string, number]): boolean => Math.floor(n / 2 ** (32 - bits)) === Math.floor(toInt(first) / 2 ** (32 - bits))
const isReservedIPv4 = (n: number): boolean => RESERVED_IPV4.some((range) => inRange(n, range))

/** An address within `range`. */
const ipv4In = ([first, bits]: [string, number]): fc.Arbitrary<number> => fc.integer({ min: 0, max: 2 ** (32 - bits) - 1 }).map((offset) => toInt(first) + offset)
const reservedIPv4 = fc.constantFrom(...RESERVED_IPV4).chain(ipv4In)
const publicIPv4 = fc.integer({ min: 0, max: 2 ** 32 - 1 }).filter((n) => !isReservedIPv4(n))
const hex16 = fc.integer({ min: 0, max: 0xffff })
const high = (n: number): number => Math.floor(n / 65536)
const low = (n: number): number => n % 65536
const v6 = (parts: number[]): string => parts.map((part) => part.toString(16)).join(':')

/** The IPv6 forms that carry an IPv4 address, each as a literal a URL or a resolver may give. */
const embeddings: Array<[string, (v4: number) => fc.Arbitrary<string>]> = [
  ['IPv4-mapped, dotted', (n) => fc.constant(`::ffff:${toDotted(n)}`)],
  ['IPv4-mapped, hex', (n) => fc.constant(v6([0, 0, 0, 0, 0, 0xffff, high(n), low(n)]))],
  ['IPv4-compatible, dotted', (n) => fc.constant(`::${toDotted(n)}`)],
  // What a URL's host becomes: `new URL('http://[::127.0.0.1]/').hostname` is `[::7f00:1]`.
  ['IPv4-compatible, hex', (n) => fc.constant(v6([0, 0, 0, 0, 0, 0, high(n), low(n)]))],
  ['IPv4-translated', (n) => fc.constant(v6([0, 0, 0, 0, 0xffff, 0, high(n), low(n)]))],
  ['NAT64 64:ff9b::/96', (n) => fc.constant(`64:ff9b::${toDotted(n)}`)],
  ['6to4 2002::/16', (n) => fc.tuple(hex16, hex16, hex16, hex16, hex16).map(([a, b, c, d, e]) => v6([0x2002, high(n), low(n), a, b, c, d, e]))],
  // Teredo: 2001:0:<server IPv4>:<flags>:<port>:<client IPv4 inverted>; here the IPv4 in either place, the other one public.
  ['Teredo server', (n) => fc.tuple(publicIPv4, hex16, hex16).map(([client, flags, port]) => v6([0x2001, 0, high(n), low(n), flags, port, high(client) ^ 0xffff, low(client) ^ 0xffff]))],
  ['Teredo client', (n) => fc.tuple(publicIPv4, hex16, hex16).map(([server, flags, port]) => v6([0x2001, 0, high(server), low(server), flags, port, high(n) ^ 0xffff, low(n) ^ 0xffff]))]
]

/** Non-public IPv6 ranges (RFC 4291, RFC 6890 and the IANA registry) outside the embedding forms. */
const RESERVED_IPV6: Array<[number[], number]> = [
  [[0, 0, 0, 0, 0, 0, 0, 1], 128], // loopback
  [[0, 0, 0, 0, 0, 0, 0, 0], 128], // unspecified
  [[0x0100, 0, 0, 0], 64], // discard
  [[0x64, 0xff9b, 1], 48], // local-use NAT64 (RFC 8215): never public, whatever it carries
  [[0x2001, 0x0db8], 32], // documentation
  [[0x2001, 0x0002, 0], 48], // benchmarking
  [[0x2001, 0x0010], 28], // ORCHID
  [[0x2001, 0x0020], 28], // ORCHIDv2
  [[0x3fff, 0], 20], // documentation (RFC 9637)
  [[0xfc00], 7], // unique-local
  [[0xfe80], 10], // link-local
  [[0xfec0], 10], // site-local (deprecated)
  [[0xff00], 8], // multicast
  [[0x4000], 2], // outside global unicast 2000::/3: 4000::/2
  [[0x8000], 1] // and 8000::/1
]

/** An address within an IPv6 range: its prefix's bits kept, the rest random. */
function ipv6In ([prefix, bits]: [number[], number]): fc.Arbitrary<string> {
  return fc.array(hex16, { minLength: 8, maxLength: 8 }).map((random) => v6(random.map((part, i) => {
    const kept = Math.max(0, Math.min(16, bits - i * 16))
    const mask = kept === 0 ? 0 : (0xffff << (16 - kept)) & 0xffff
    return ((prefix[i] ?? 0) & mask) | (part & ~mask & 0xffff)
  })))
}

const RUNS = { numRuns: 300 }

describe('the webhook address guard', () => {
  it('refuses every address of the reserved IPv4 ranges', () => {
    fc.assert(fc.property(reservedIPv4, (n) => { assert.equal(isPublicAddress(toDotted(n)), false, toDotted(n)) }), RUNS)
  })

  it('accepts public IPv4 addresses', () => {
    fc.assert(fc.property(publicIPv4, (n) => { assert.equal(isPublicAddress(toDotted(n)), true, toDotted(n)) }), RUNS)
  })

  for (const [name, embed] of embeddings) {
    it(`judges ${name} addresses by the IPv4 address they carry`, () => {
      fc.assert(fc.property(reservedIPv4.chain((n) => embed(n).map((address) => [n, address] as const)), ([n, address]) => {
        assert.equal(isPublicAddress(address), false, `${address} carries ${toDotted(n)}`)
      }), RUNS)
      fc.assert(fc.property(publicIPv4.chain((n) => embed(n).map((address) => [n, address] as const)), ([n, address]) => {
        assert.equal(isPublicAddress(address), true, `${address} carries ${toDotted(n)}`)
      }), RUNS)
    })
  }

  it('refuses the reserved IPv6 ranges, whatever else the address holds', () => {
    fc.assert(fc.property(fc.constantFrom(...RESERVED_IPV6).chain(ipv6In), (address) => {
      assert.equal(isPublicAddress(address), false, address)
    }), RUNS)
  })

  it('accepts global unicast IPv6 outside the special ranges', () => {
    const special: Array<[number[], number]> = [[[0x2001, 0], 23], [[0x2001, 0xdb8], 32], [[0x2002], 16], [[0x2620, 0x4f, 0x8000], 48], [[0x3fff, 0], 20]]
    const within = (address: string, [prefix, bits]: [number[], number]): boolean => {
      const parts = address.split(':').map((part) => Number.parseInt(part, 16))
      return parts.every((part, i) => {
        const kept = Math.max(0, Math.min(16, bits - i * 16))
        const mask = kept === 0 ? 0 : (0xffff << (16 - kept)) & 0xffff
        return (part & mask) === ((prefix[i] ?? 0) & mask)
      })
    }
    fc.assert(fc.property(ipv6In([[0x2000], 3]).filter((address) => !special.some((range) => within(address, range))), (address) => {
      assert.equal(isPublicAddress(address), true, address)
    }), RUNS)
  })

  it('checks a URL\'s IP literal in every embedding before any lookup', async () => {
    const embedded = fc.constantFrom(...embeddings).chain(([, embed]) => reservedIPv4.chain(embed))
    await fc.assert(fc.asyncProperty(embedded, async (address) => {
      await assert.rejects(checkWebhookTarget(`http://[${address}]:8080/hook`, false), WebhookTargetError, address)
    }), { numRuns: 100 })
    await checkWebhookTarget('http://[::ffff:93.184.215.14]/hook', false)
    await checkWebhookTarget('http://[64:ff9b::93.184.215.14]/hook', false)
  })

  it('known addresses: the audit\'s, cloud metadata, and a few public ones', () => {
    for (const address of ['::127.0.0.1', '::7f00:1', '::a9fe:a9fe', '::ffff:169.254.169.254', '64:ff9b::a9fe:a9fe', '2002:a9fe:a9fe::', '2001:0:a9fe:a9fe::', 'fd00:ec2::254', '::', '::1', '0.0.0.0', '255.255.255.255']) {
      assert.equal(isPublicAddress(address), false, address)
    }
    for (const address of ['93.184.215.14', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1']) {
      assert.equal(isPublicAddress(address), true, address)
    }
    for (const garbage of ['', 'localhost', '127.1', '1.2.3', '::g', '1.2.3.4.5']) assert.equal(isPublicAddress(garbage), false, garbage)
  })
})
