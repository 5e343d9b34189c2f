import fp from 'fastify-plugin'
import cookie from '@fastify/cookie'
import type { FastifyInstance } from 'fastify'
import { gravatar, type Helpdesk } from '@helpdesk/core'
import { installAuthentication } from './http/authentication.js'
import { installNulCharacterCheck } from './http/nul-characters.js'
import { installErrorHandling } from './http/errors.js'
import { installJsonBodyParser } from './http/json-body.js'
import { installEventSubscription } from './http/event-subscription.js'
import { installJobWorkers } from './http/job-workers.js'
import { installOpenApi } from './http/openapi.js'
import { installRateLimit, loginRateLimit } from './http/rate-limit.js'
import type { HelpdeskApp, RouteContext } from './http/route-context.js'
import { installSerialization } from './http/serializers.js'
import { installValidation } from './http/validator.js'
import type { HelpdeskPluginOptions } from './options.js'
import { helpdeskServices } from './services.js'
import { agentRoutes } from './routes/agents/agent-routes.js'
import { assignmentRoutes } from './routes/assignment/assignment-routes.js'
import { collectionRoutes } from './routes/article-collections/collection-routes.js'
import { articleRoutes } from './routes/articles/article-routes.js'
import { authRoutes } from './routes/auth/auth-routes.js'
import { sessionRoutes } from './routes/auth/session-routes.js'
import { sessionListRoutes } from './routes/auth/session-list-routes.js'
import { accountRoutes } from './routes/auth/account-routes.js'
import { twoFactorRoutes } from './routes/auth/two-factor-routes.js'
import { settingsRoutes } from './routes/settings/settings-routes.js'
import { ssoRoutes } from './routes/sso/sso-routes.js'
import { cannedResponseRoutes } from './routes/canned-responses/canned-response-routes.js'
import { categoryRoutes } from './routes/categories/category-routes.js'
import { customerRoutes } from './routes/customers/customer-routes.js'
import { fieldRoutes } from './routes/fields/field-routes.js'
import { notificationRoutes } from './routes/notifications/notification-routes.js'
import { importRoutes } from './routes/imports/import-routes.js'
import { healthRoutes } from './routes/health/health-routes.js'
import { ticketRoutes } from './routes/tickets/ticket-routes.js'
import { macroRoutes } from './routes/macros/macro-routes.js'
import { viewRoutes } from './routes/views/view-routes.js'
import { triggerRoutes } from './routes/triggers/trigger-routes.js'
import { automationRoutes } from './routes/automations/automation-routes.js'
import { assignmentRuleRoutes } from './routes/assignment/assignment-rule-routes.js'
import { commentRoutes } from './routes/comments/comment-routes.js'
import { attachmentRoutes } from './routes/attachments/attachment-routes.js'
import { draftRoutes } from './routes/drafts/draft-routes.js'
import { mailRoutes } from './routes/mail/mail-routes.js'
import { webhookRoutes } from './routes/webhooks/webhook-routes.js'
import { eventStreamRoutes } from './routes/event-stream/event-stream-routes.js'
import { satisfactionRoutes } from './routes/satisfaction/satisfaction-routes.js'
import { historyRoutes } from './routes/history/history-routes.js'
import { auditRoutes } from './routes/audit/audit-routes.js'
import { slaRoutes } from './routes/sla/sla-routes.js'
import { reportRoutes } from './routes/reports/report-routes.js'
import { presenceRoutes } from './routes/presence/presence-routes.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** The help desk's services (tickets, customers, auth...), for the host app. */
    helpdesk: Helpdesk
  }
}

/** Every resource's routes, in one list: adding a resource is one line here. */
const routeModules = [healthRoutes, authRoutes, sessionRoutes, sessionListRoutes, customerRoutes, agentRoutes, categoryRoutes, notificationRoutes, importRoutes,
  fieldRoutes, cannedResponseRoutes, collectionRoutes, articleRoutes, ticketRoutes, macroRoutes, viewRoutes, triggerRoutes, automationRoutes, assignmentRuleRoutes,
  commentRoutes, attachmentRoutes, draftRoutes, webhookRoutes, eventStreamRoutes, mailRoutes, accountRoutes, twoFactorRoutes, settingsRoutes, ssoRoutes,
  satisfactionRoutes, historyRoutes, auditRoutes, slaRoutes, assignmentRoutes, reportRoutes, presenceRoutes]

async function helpdeskPlugin (host: FastifyInstance, options: HelpdeskPluginOptions): Promise<void> {
  const helpdesk = helpdeskServices(options)
  host.decorate('helpdesk', helpdesk)
  installEventSubscription(host, helpdesk, options)
  installJobWorkers(host, helpdesk, options, options.avatar ?? gravatar)

  // Everything else lives in an encapsulated child: no hook, handler or decorator reaches the host.
  await host.register(async (child) => {
    const app = child as unknown as HelpdeskApp
    installJsonBodyParser(app)
    installValidation(app)
    installSerialization(app)
    installErrorHandling(app)
    await installOpenApi(app, options.prefix ?? '/api/v1')
    // The console's session cookie; parsed before the rate limiter, which keys on it.
    // A host that registered @fastify/cookie itself already parses cookies for every request.
    if (!app.hasDecorator('parseCookie')) await app.register(cookie)
    // A callback hook, not an async one: it runs on every response.
    app.addHook('onSend', (_request, reply, payload, done) => {
      reply.header('x-content-type-options', 'nosniff')
      done(null, payload)
    })
    // Authentication first: its onRequest hook verifies the bearer token the rate limiter keys on.
    installAuthentication(app, helpdesk, options)
    if (options.rateLimit !== false) {
      const close = await installRateLimit(app, options.rateLimit ?? {})
      app.addHook('onClose', close)
    }
    installNulCharacterCheck(app)
    const rateLimit = options.rateLimit ?? {}
    const context: RouteContext = { helpdesk, avatar: options.avatar ?? gravatar, options: { ...options, rateLimit }, loginLimit: loginRateLimit(app, rateLimit) }
    for (const routes of routeModules) routes(app, context)
  }, { prefix: options.prefix ?? '/api/v1' })
}

/** The help desk's HTTP API as a Fastify plugin. */
export const helpdesk = fp(helpdeskPlugin, { name: '@helpdesk/fastify', fastify: '5.x' })
export default helpdesk
