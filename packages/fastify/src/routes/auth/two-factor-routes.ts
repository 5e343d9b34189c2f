import { actorOf } from '../../http/authentication.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import { CodeBody, Data, Enrolment, RecoveryCodes, responses, Success, TwoFactorStatus, UserIdParams } from '@helpdesk/shapes'

/** Your own two-factor authentication (profile -> security), and an administrator's reset of someone's. */
export function twoFactorRoutes (app: HelpdeskApp, { helpdesk }: RouteContext): void {
  const tags = ['Auth']

  app.get('/auth/two-factor', {
    schema: { tags, summary: 'Your two-factor authentication', response: responses({ 200: Data(TwoFactorStatus) }) }
  }, async (request) => ({ data: await helpdesk.twoFactor.status(actorOf(request)) }))

  app.post('/auth/two-factor/enrolment', {
    schema: {
      tags,
      summary: 'Start enrolling an authenticator app',
      description: 'A new TOTP secret with its QR code; nothing changes until it is confirmed with a first code ' +
        '(`POST /auth/two-factor/confirmation`). 422 when two-factor authentication is already on. Personal API tokens are not affected by two-factor authentication.',
      response: responses({ 200: Data(Enrolment) })
    }
  }, async (request) => ({ data: await helpdesk.twoFactor.begin(actorOf(request)) }))

  app.post('/auth/two-factor/confirmation', {
    schema: {
      tags,
      summary: 'Confirm the enrolment with a first code',
      description: 'Turns two-factor authentication on and answers ten recovery codes, shown this once. 422 on `code` when wrong.',
      body: CodeBody,
      response: responses({ 200: Data(RecoveryCodes) })
    }
  }, async (request) => ({ data: await helpdesk.twoFactor.confirm(actorOf(request), request.body.code) }))

  app.post('/auth/two-factor/recovery-codes', {
    schema: {
      tags,
      summary: 'New recovery codes',
      description: 'After a code (TOTP or recovery): ten new recovery codes, shown this once; the old ones stop working.',
      body: CodeBody,
      response: responses({ 200: Data(RecoveryCodes) })
    }
  }, async (request) => ({ data: await helpdesk.twoFactor.regenerateRecoveryCodes(actorOf(request), request.body.code) }))

  app.delete('/auth/two-factor', {
    schema: {
      tags,
      summary: 'Turn your two-factor authentication off',
      description: 'After a code (TOTP or recovery). 403 when an administrator requires it of your role.',
      body: CodeBody,
      response: responses({ 200: Success })
    }
  }, async (request) => {
    await helpdesk.twoFactor.disable(actorOf(request), request.body.code)
    return { success: true as const }
  })

  app.delete('/auth/two-factor/users/:userId', {
    schema: {
      tags,
      summary: 'Reset a person\'s two-factor authentication (administrators)',
      description: 'For a person who lost their phone and recovery codes: their two-factor authentication is off; they sign in with ' +
        'their password (and enrol again at that sign-in if their role requires it).',
      params: UserIdParams,
      response: responses({ 200: Success })
    }
  }, async (request) => {
    await helpdesk.twoFactor.reset(actorOf(request), request.params.userId)
    return { success: true as const }
  })
}
