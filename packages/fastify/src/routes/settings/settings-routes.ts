import { Type } from '@sinclair/typebox'
import { actorOf } from '../../http/authentication.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import { AuditSettings, Data, ReportSettings, responses, SatisfactionSettings, SlaSettings, TicketSettings } from '@helpdesk/shapes'

const Role = Type.Union([Type.Literal('admin'), Type.Literal('agent'), Type.Literal('customer')])
const Verification = Type.Union([Type.Literal('off'), Type.Literal('optional'), Type.Literal('required')], {
  description: 'Email verification of self-registered customers: `off` (Active at once), `optional` (Unconfirmed until they open the ' +
    'mailed link), `required` (the same, and no ticket before that).'
})

const SettingsBody = Type.Object({
  'auth.email_verification': Verification,
  'auth.two_factor_required': Type.Array(Role, {
    description: 'Roles that must use two-factor authentication: their people enrol at their next sign-in before they get a session.'
  }),
  'auth.sso_only_staff': Type.Boolean({ description: 'Staff sign in only through single sign-on (password sign-in refused for administrators and agents).' }),
  ...SatisfactionSettings,
  ...AuditSettings,
  ...SlaSettings,
  ...ReportSettings,
  ...TicketSettings
})

const SettingsPatch = Type.Partial(SettingsBody, {
  additionalProperties: false,
  description: 'Absent keys keep their value.',
  examples: [{ 'auth.two_factor_required': ['admin'] }]
})

/** Administrator settings kept in the database (every instance reads the same). */
export function settingsRoutes (app: HelpdeskApp, { helpdesk }: RouteContext): void {
  const tags = ['Settings']

  app.get('/settings', {
    schema: { tags, summary: 'The administrator settings', description: 'Administrators.', response: responses({ 200: Data(SettingsBody) }) }
  }, async (request) => ({ data: await helpdesk.settings.get(actorOf(request)) }))

  app.patch('/settings', {
    schema: {
      tags,
      summary: 'Change administrator settings',
      description: 'Administrators. Takes effect on every instance at once (each reads them from the database when it needs them).',
      body: SettingsPatch,
      response: responses({ 200: Data(SettingsBody) })
    }
  }, async (request) => ({ data: await helpdesk.settings.update(actorOf(request), request.body as Record<string, unknown>) }))
}
