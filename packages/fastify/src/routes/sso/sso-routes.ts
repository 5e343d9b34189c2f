import { Type } from '@sinclair/typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { ssoProviderList, ssoRefusal } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import { listQueryFrom, pagedResponse } from '../../http/list-request.js'
import { clientOf, setSessionCookie } from '../../http/session-cookie.js'
import { Data, DateTime, IdParams, listQuerystring, Nullable, Paged, responses, Success } from '@helpdesk/shapes'

/** The cookie binding a sign-in under way to the browser that started it (its state; the rest is kept server-side). */
export const SSO_STATE_COOKIE = 'helpdesk_sso_state'
const FLOW_SECONDS = 600

const SlugParams = Type.Object({ slug: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,49}$' }) })

const Mapping = Type.Object({
  claim: Nullable(Type.String({ minLength: 1, maxLength: 100, description: 'The claim holding groups or roles (e.g. `groups`); null: no mapping (people keep their role; new people are customers).' })),
  admin: Type.Array(Type.String({ maxLength: 200 }), { description: 'Claim values that make an administrator.' }),
  agent: Type.Array(Type.String({ maxLength: 200 }), { description: 'Claim values that make an agent (unless administrator).' }),
  permissions: Type.Record(Type.String(), Type.Array(Type.String({ maxLength: 200 })), { description: 'Per permission key, the claim values that grant it to agents.' }),
  categories: Type.Record(Type.String(), Type.Array(Type.Integer({ minimum: 1 })), { description: 'Per claim value, the category ids agents holding it get.' })
})

const Provider = Type.Object({
  id: Type.Integer(),
  slug: Type.String(),
  name: Type.String(),
  issuer: Type.String({ description: 'The issuer URL; discovery at `<issuer>/.well-known/openid-configuration`.' }),
  client_id: Type.String(),
  has_client_secret: Type.Boolean({ description: 'Whether a client secret is stored. The secret itself is write-only: never shown.' }),
  scopes: Type.String(),
  enabled: Type.Boolean(),
  staff: Type.Boolean({ description: 'Staff may sign in through it.' }),
  customers: Type.Boolean({ description: 'Customers may sign in through it.' }),
  create_users: Type.Boolean({ description: 'A first sign-in of someone unknown creates them.' }),
  link_by_email: Type.Boolean({ description: 'A first sign-in links to the person with that address, when the provider says it verified the address. Afterwards people are matched by the provider\'s `sub` only.' }),
  mapping: Mapping,
  created_at: DateTime,
  updated_at: DateTime
})

const ProviderFields = {
  slug: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,49}$' }),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  issuer: Type.String({ minLength: 1, maxLength: 500 }),
  client_id: Type.String({ minLength: 1, maxLength: 255 }),
  client_secret: Nullable(Type.String({ minLength: 1, maxLength: 1000, description: 'Write-only.' })),
  scopes: Type.String({ minLength: 1, maxLength: 500, description: 'Space-separated; `openid` is always asked for. Default `openid email profile` (add `offline_access` where the provider needs it to issue refresh tokens).' }),
  enabled: Type.Boolean(),
  staff: Type.Boolean(),
  customers: Type.Boolean(),
  create_users: Type.Boolean(),
  link_by_email: Type.Boolean(),
  mapping: Type.Partial(Mapping)
}

const EXAMPLE = {
  slug: 'keycloak', name: 'Company login', issuer: 'https://sso.example.com/realms/acme', client_id: 'helpdesk', client_secret: 'from-keycloak',
  scopes: 'openid email profile', staff: true, customers: false, create_users: true, link_by_email: true,
  mapping: { claim: 'groups', admin: ['helpdesk-admins'], agent: ['helpdesk-agents'], permissions: { view_all_tickets: ['helpdesk-leads'] }, categories: { billing: [1] } }
}

const NewProvider = Type.Object({
  slug: ProviderFields.slug,
  name: ProviderFields.name,
  issuer: ProviderFields.issuer,
  client_id: ProviderFields.client_id,
  client_secret: Type.Optional(ProviderFields.client_secret),
  scopes: Type.Optional(ProviderFields.scopes),
  enabled: Type.Optional(ProviderFields.enabled),
  staff: Type.Optional(ProviderFields.staff),
  customers: Type.Optional(ProviderFields.customers),
  create_users: Type.Optional(ProviderFields.create_users),
  link_by_email: Type.Optional(ProviderFields.link_by_email),
  mapping: Type.Optional(ProviderFields.mapping)
}, { additionalProperties: false, examples: [EXAMPLE] })

const ProviderPatch = Type.Partial(Type.Object(ProviderFields), { additionalProperties: false, examples: [{ enabled: false }] })

const Button = Type.Object({ slug: Type.String(), name: Type.String(), staff: Type.Boolean(), customers: Type.Boolean() })

function stateCookie (request: FastifyRequest): string | null {
  const value = (request as { cookies?: Record<string, string | undefined> }).cookies?.[SSO_STATE_COOKIE]
  return value === undefined || value === '' ? null : value
}

function cookieOptions (request: FastifyRequest) {
  return { httpOnly: true, sameSite: 'lax' as const, path: '/', secure: request.protocol === 'https' }
}

/** Single sign-on: the sign-in page's buttons, the flow's two redirects, and the providers (administrators). */
export function ssoRoutes (app: HelpdeskApp, { helpdesk }: RouteContext): void {
  const tags = ['Single sign-on']

  app.get('/auth/sso/providers', {
    schema: { tags, summary: 'The sign-in buttons', description: 'The enabled providers: slug, name and whom they sign in. Public.', response: responses({ 200: Data(Type.Array(Button)) }) },
    config: { auth: 'none' }
  }, async () => ({ data: await helpdesk.sso.buttons() }))

  app.get('/auth/sso/:slug/start', {
    schema: {
      tags,
      summary: 'Start signing in with a provider (browser)',
      description: 'Redirects (302) to the provider with the authorization code flow: PKCE (S256), state and nonce, kept server-side for 10 ' +
        'minutes and used once; the state is also bound to this browser by the HttpOnly cookie `helpdesk_sso_state`. `return_to` is a path of ' +
        'the console to land on afterwards. 404 for an unknown or disabled provider.',
      params: SlugParams,
      querystring: Type.Object({ return_to: Type.Optional(Type.String({ maxLength: 500 })) }),
      response: responses({ 302: Type.Null({ description: 'To the provider.' }) })
    },
    config: { auth: 'none' }
  }, async (request, reply) => {
    const { url, state } = await helpdesk.sso.start(request.params.slug, request.query.return_to ?? null)
    void reply.setCookie(SSO_STATE_COOKIE, state, { ...cookieOptions(request), maxAge: FLOW_SECONDS })
    return await reply.redirect(url, 302)
  })

  app.get('/auth/sso/:slug/callback', {
    schema: {
      tags,
      summary: 'Where the provider sends the browser back',
      description: 'Checks the state against the browser\'s cookie and the kept flow (used up), exchanges the code with the PKCE verifier, ' +
        'verifies the ID token (signature, issuer, audience, expiry, nonce), finds the person by the provider\'s `sub` (or links or creates ' +
        'them, as the provider allows, by a verified email only), starts a console session (the same cookie as a password sign-in) and ' +
        'redirects (302) to the console. A refused sign-in redirects to the console\'s `/login?sso_error=<sentence>` without a session.',
      params: SlugParams,
      querystring: Type.Object({}, { additionalProperties: true }),
      response: responses({ 302: Type.Null({ description: 'To the console.' }) })
    },
    config: { auth: 'none' }
  }, async (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : ''
    const bound = stateCookie(request)
    void reply.clearCookie(SSO_STATE_COOKIE, cookieOptions(request))
    try {
      const result = await helpdesk.sso.callback(request.params.slug, query, bound, clientOf(request))
      setSessionCookie(request, reply, result.token, Math.floor(helpdesk.auth.sessionLifetimeMs / 1000))
      return await reply.redirect(helpdesk.sso.consolePath(result.returnTo ?? '/'), 302)
    } catch (error) {
      const refusal = ssoRefusal(error)
      if (refusal === null) throw error
      return await redirectWithError(reply, helpdesk.sso.consolePath(`/login?sso_error=${encodeURIComponent(refusal)}`))
    }
  })

  app.get('/sso/providers', {
    schema: {
      tags,
      summary: 'The single-sign-on providers (paged; filter[name], filter[slug], filter[enabled])',
      description: 'Administrators.',
      querystring: listQuerystring(ssoProviderList),
      response: responses({ 200: Paged(Provider) })
    }
  }, async (request) => pagedResponse(request, await helpdesk.sso.page(actorOf(request), listQueryFrom(request, ssoProviderList)), (p) => p))

  app.post('/sso/providers', {
    schema: {
      tags,
      summary: 'Add a provider',
      description: 'Administrators. The client secret is write-only (sealed at rest when the instance has a secret key). Register ' +
        '`<API URL>/auth/sso/<slug>/callback` as the redirect URI at the provider. 422 on `slug` when taken.',
      body: NewProvider,
      response: responses({ 201: Data(Provider) })
    }
  }, async (request, reply) => await reply.code(201).send({ data: await helpdesk.sso.create(actorOf(request), request.body) }))

  app.get('/sso/providers/:id', {
    schema: { tags, summary: 'A provider', description: 'Administrators.', params: IdParams, response: responses({ 200: Data(Provider) }) }
  }, async (request) => ({ data: await helpdesk.sso.get(actorOf(request), request.params.id) }))

  app.patch('/sso/providers/:id', {
    schema: {
      tags, summary: 'Change a provider', description: 'Administrators. Absent keys keep their value; `client_secret: null` removes the secret.', params: IdParams, body: ProviderPatch, response: responses({ 200: Data(Provider) })
    }
  }, async (request) => ({ data: await helpdesk.sso.update(actorOf(request), request.params.id, request.body) }))

  app.delete('/sso/providers/:id', {
    schema: {
      tags, summary: 'Remove a provider', description: 'Administrators. The sessions started through it end at once; the people stay.', params: IdParams, response: responses({ 200: Success })
    }
  }, async (request) => {
    await helpdesk.sso.delete(actorOf(request), request.params.id)
    return { success: true as const }
  })
}

async function redirectWithError (reply: FastifyReply, location: string): Promise<FastifyReply> {
  return await reply.redirect(location, 302)
}
