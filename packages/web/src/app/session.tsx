import { createContext, type ComponentChildren } from 'preact'
import { useContext, useEffect, useState, useCallback } from 'preact/hooks'
import { api, request, setCsrfToken, onUnauthenticated, ApiError } from './api.js'
import type { SessionUser, Permissions, PermissionKey } from './types.js'

interface SessionBody { data: { user: SessionUser, csrf_token: string, permissions?: Permissions } }

export interface Session {
  /** undefined while the first GET /auth/session runs; null when signed out. */
  user: SessionUser | null | undefined
  permissions: Permissions
  isStaff: boolean
  can: (permission: PermissionKey) => boolean
  logIn: (email: string, password: string) => Promise<void>
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

  const logIn = useCallback(async (email: string, password: string) => {
    await accept(await api.post<SessionBody>('/auth/session', { email, password }))
  }, [accept])

  const register = useCallback(async (body: Record<string, string>) => {
    // Registration answers with a bearer token; the console keeps to its cookie session and revokes that token.
    const registered = await api.post<{ data: { token: string } }>('/auth/register', body)
    await logIn(body.email ?? '', body.password ?? '')
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

  return <SessionContext.Provider value={{ user, permissions, isStaff, can, logIn, register, logOut }}>{children}</SessionContext.Provider>
}
