import { createServer, type Server } from 'node:http'
import type { TestContext } from 'node:test'
import Provider from 'oidc-provider'

/** A person at the test identity provider; `sub` is the account id. */
export interface TestAccount {
  email: string
  email_verified: boolean
  given_name?: string
  family_name?: string
  groups?: string[]
  /** Disabled (or removed) at the provider: it no longer finds the account. */
  disabled?: boolean
}

export interface TestIdentityProvider {
  issuer: string
  accounts: Map<string, TestAccount>
  /** Follows the authorization URL through the provider's own login and consent pages as `accountId`; answers the redirect back (the callback URL with `code` and `state`). */
  signIn: (authorizationUrl: string, accountId: string) => Promise<URL>
}

export const CLIENT = { id: 'helpdesk', secret: 'helpdesk-client-secret' }
export const OTHER_CLIENT = { id: 'other-app', secret: 'other-app-secret' }

/**
 * A real OpenID Provider (panva's oidc-provider) on a free loopback port, with two confidential
 * clients (the help desk and another application) whose redirect URI is `redirectUri`, and test
 * accounts. Stopped after the test.
 */
export async function startIdentityProvider (t: TestContext, redirectUri: string, accounts: Record<string, TestAccount>): Promise<TestIdentityProvider> {
  const known = new Map(Object.entries(accounts))
  const server: Server = await new Promise((resolve) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => { resolve(s) })
  })
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  const issuer = `http://127.0.0.1:${port}`
  const client = (id: string, secret: string) => ({
    client_id: id, client_secret: secret, redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code']
  })
  const provider = new Provider(issuer, {
    clients: [client(CLIENT.id, CLIENT.secret), client(OTHER_CLIENT.id, OTHER_CLIENT.secret)],
    cookies: { keys: ['oidc-test-cookie-key'] },
    scopes: ['openid', 'email', 'profile', 'groups', 'offline_access'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'], groups: ['groups'] },
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    issueRefreshToken: async (_ctx: unknown, c: { grantTypeAllowed: (type: string) => boolean }) => c.grantTypeAllowed('refresh_token'),
    findAccount: async (_ctx: unknown, id: string) => {
      const account = known.get(id)
      if (account === undefined || account.disabled === true) return undefined
      return {
        accountId: id,
        claims: async () => ({ sub: id, email: account.email, email_verified: account.email_verified, given_name: account.given_name, family_name: account.family_name, groups: account.groups ?? [] })
      }
    },
    features: { devInteractions: { enabled: true } }
  })
  provider.on('server_error', () => {})
  server.on('request', provider.callback())
  t.after(async () => { await new Promise<void>((resolve) => { server.close(() => { resolve() }); server.closeAllConnections() }) })

  const signIn = async (authorizationUrl: string, accountId: string): Promise<URL> => {
    const jar = new Map<string, string>()
    const cookieHeader = (): string => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
    const keep = (res: Response): void => {
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';')
        const eq = pair?.indexOf('=') ?? -1
        if (pair !== undefined && eq > 0) jar.set(pair.slice(0, eq), pair.slice(eq + 1))
      }
    }
    let url = new URL(authorizationUrl)
    let body: URLSearchParams | null = null
    for (let hop = 0; hop < 20; hop++) {
      const res = await fetch(url, {
        method: body === null ? 'GET' : 'POST', redirect: 'manual',
        headers: { cookie: cookieHeader(), ...(body !== null ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        ...(body !== null ? { body } : {})
      })
      keep(res)
      body = null
      const location = res.headers.get('location')
      if (location !== null) {
        const next = new URL(location, url)
        if (next.href.startsWith(redirectUri)) return next
        url = next
        continue
      }
      const html = await res.text()
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]
      const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1]
      if (action === undefined || prompt === undefined) throw new Error(`unexpected page from the provider (${res.status}): ${html.slice(0, 300)}`)
      url = new URL(action.replace(/&amp;/g, '&'), url)
      body = new URLSearchParams(prompt === 'login' ? { prompt, login: accountId, password: 'any' } : { prompt })
    }
    throw new Error('too many redirects at the provider')
  }
  return { issuer, accounts: known, signIn }
}
