import { createContext, type ComponentChildren } from 'preact'
import { useContext, useEffect, useState, useCallback } from 'preact/hooks'
import { api, request, setCsrfToken, onUnauthenticated, ApiError } from './api.js'
import type { SessionUser, Permissions, PermissionKey } from './types.js'

interface SessionBody { data: { user: SessionUser, csrf_token: string, permissions?: Permissions, recovery_codes?: string[] | null } }

/** A sign-in that still needs its second factor (the password or link was right). */
export interface SecondFactor { challenge: string, enrol: boolean }

type SignInBody = SessionBody | { data: { second_factor: SecondFactor } }

/** What a sign-in step answers: signed in (perhaps with recovery codes to show first), or a second factor to ask for. */
export type SignInOutcome = { secondFactor: SecondFactor } | { signedIn: true, recoveryCodes: string[] | null, accept: () => Promise<void> }

export interface Session {
  /** undefined while the first GET /auth/session runs; null when signed out. */
  user: SessionUser | null | undefined
  permissions: Permissions
  isStaff: boolean
  can: (permission: PermissionKey) => boolean
  logIn: (email: string, password: string) => Promise<SignInOutcome>
  /** Signs in with a magic link's token (from the mail). */
  magicLink: (token: string) => Promise<SignInOutcome>
  /** Completes a sign-in with its challenge and a code; recovery codes come back when it completed an enrolment. */
  secondFactor: (challenge: string, code: string) => Promise<SignInOutcome>
  register: (body: Record<string, string>) => Promise<void>
  logOut: () => Promise<void>
}

const SessionContext = createContext<Session | null>(null)

export function useSession (): Session {
  const session = useContext(SessionContext)
  if (session === null) throw new Error('useSession outside SessionProvider')
  return session
}

/**
 * Agents' permission flags; administrators hold them all. Where the server lets only administrators read
 * `/agents/{id}/permissions` (403 for the agent itself), the flags a read can reveal are probed instead
 * (`manage_customers`: may the agent list customers?) and the rest stay off: fail closed.
 */
async function loadPermissions (user: SessionUser): Promise<Permissions> {
  if (user.type !== 'agent') return {}
  try {
    return (await api.get<{ data: Permissions }>(`/agents/${user.id}/permissions`)).data
  } catch {
    const customers = await api.get('/customers', { per_page: 1 }).then(() => true, () => false)
    return { manage_customers: customers }
  }
}

export function SessionProvider ({ children }: { children: ComponentChildren }) {
  const [user, setUser] = useState<SessionUser | null | undefined>(undefined)
  const [permissions, setPermissions] = useState<Permissions>({})

  const accept = useCallback(async (body: SessionBody) => {
    setCsrfToken(body.data.csrf_token)
    // A server that sends the agent's own flags with the session saves the extra read.
    setPermissions(body.data.permissions ?? await loadPermissions(body.data.user))
    setUser(body.data.user)
  }, [])

  useEffect(() => {
    api.get<SessionBody>('/auth/session').then(accept).catch(() => { setUser(null) })
    return onUnauthenticated(() => { setCsrfToken(null); setUser(null) })
  }, [accept])

  const outcome = useCallback(async (body: SignInBody): Promise<SignInOutcome> => {
    if ('second_factor' in body.data) return { secondFactor: body.data.second_factor }
    const session = body as SessionBody
    const codes = session.data.recovery_codes ?? null
    // Recovery codes are shown before the console takes over the page: the caller accepts the session when they are saved.
    if (codes !== null && codes.length > 0) return { signedIn: true, recoveryCodes: codes, accept: async () => { await accept(session) } }
    await accept(session)
    return { signedIn: true, recoveryCodes: null, accept: async () => {} }
  }, [accept])

  const logIn = useCallback(async (email: string, password: string) => {
    return await outcome(await api.post<SignInBody>('/auth/session', { email, password }))
  }, [outcome])

  const magicLink = useCallback(async (token: string) => {
    return await outcome(await api.post<SignInBody>('/auth/magic-link/session', { token }))
  }, [outcome])

  const secondFactor = useCallback(async (challenge: string, code: string) => {
    return await outcome(await api.post<SignInBody>('/auth/session/two-factor', { challenge, code }))
  }, [outcome])

  const register = useCallback(async (body: Record<string, string>) => {
    // Registration answers with a bearer token; the console keeps to its cookie session and revokes that token.
    const registered = await api.post<{ data: { token: string } }>('/auth/register', body)
    const signedIn = await logIn(body.email ?? '', body.password ?? '')
    if ('signedIn' in signedIn) await signedIn.accept()
    await request('POST', '/auth/logout', {}, { authorization: `Bearer ${registered.data.token}` }).catch(() => {})
  }, [logIn])

  const logOut = useCallback(async () => {
    try {
      await api.delete('/auth/session')
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error
    }
    setCsrfToken(null)
    setPermissions({})
    setUser(null)
  }, [])

  const isStaff = user?.type === 'admin' || user?.type === 'agent'
  const can = (permission: PermissionKey) => user?.type === 'admin' || (user?.type === 'agent' && permissions[permission] === true)

  return <SessionContext.Provider value={{ user, permissions, isStaff, can, logIn, magicLink, secondFactor, register, logOut }}>{children}</SessionContext.Provider>
}
