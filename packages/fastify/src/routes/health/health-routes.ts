import { Type } from '@sinclair/typebox'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import { ErrorBody } from '../../schemas/common.js'

const Health = Type.Object({ status: Type.Literal('ok') })
const Ready = Type.Object({ status: Type.Literal('ok'), database: Type.Literal('ok') })

/** Liveness (the process answers) and readiness (the database answers) for load balancers and orchestrators. */
export function healthRoutes (app: HelpdeskApp, { helpdesk }: RouteContext): void {
  const tags = ['Health']
  app.get('/health', {
    schema: { tags, summary: 'Liveness: the process is up', security: [], response: { 200: Health } },
    config: { auth: 'none', rateLimit: false }
  }, async () => ({ status: 'ok' as const }))

  app.get('/ready', {
    schema: { tags, summary: 'Readiness: the database answers (503 when it does not)', security: [], response: { 200: Ready, 503: ErrorBody } },
    config: { auth: 'none', rateLimit: false }
  }, async () => {
    await helpdesk.maintenance.ping()
    return { status: 'ok' as const, database: 'ok' as const }
  })
}
