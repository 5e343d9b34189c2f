import { Type } from '@sinclair/typebox'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import { ErrorBody } from '@helpdesk/shapes'

const Health = Type.Object({ status: Type.Literal('ok') })
const Ready = Type.Object({
  status: Type.Literal('ok'),
  database: Type.Literal('ok'),
  failures: Type.Object({
    event_subscribers: Type.Integer({ minimum: 0, description: 'Event subscribers (`onEvent` or the host\'s own) that threw since the process started; each was logged.' }),
    job_runner: Type.Integer({ minimum: 0, description: 'Failures of the job runner itself (its database work, not a job\'s handler) since the process started; each was logged.' })
  }, { description: 'Errors that never reached a response: counted here (the host reads `helpdesk.events.subscriberErrors` and `helpdesk.jobs.errors`) and logged.' })
})

/** Liveness (the process answers) and readiness (the database answers) for load balancers and orchestrators. */
export function healthRoutes (app: HelpdeskApp, { helpdesk }: RouteContext): void {
  const tags = ['Health']
  app.get('/health', {
    schema: { tags, summary: 'Liveness: the process is up', security: [], response: { 200: Health } },
    config: { auth: 'none', rateLimit: false }
  }, async () => ({ status: 'ok' as const }))

  app.get('/ready', {
    schema: { tags, summary: 'Readiness: the database answers (503 when it does not), with counts of errors no response reported', security: [], response: { 200: Ready, 503: ErrorBody } },
    config: { auth: 'none', rateLimit: false }
  }, async () => {
    await helpdesk.maintenance.ping()
    return { status: 'ok' as const, database: 'ok' as const, failures: { event_subscribers: helpdesk.events.subscriberErrors, job_runner: helpdesk.jobs.errors } }
  })
}
