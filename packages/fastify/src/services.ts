import { createHelpdesk, createLocalFileStorage, type Helpdesk, type HelpdeskOptions, type Store } from '@helpdesk/core'
import { createSmtpTransport } from '@helpdesk/mail'
import type { HelpdeskMailOptions, HelpdeskPluginOptions, HelpdeskServiceOptions } from './options.js'

/** The service options (and `store`): each belongs to `createHelpdesk` when the host prebuilt the services. */
const builtWith: Record<Exclude<keyof HelpdeskServiceOptions, 'mail'> | 'store', true> = {
  store: true, registration: true, hasher: true, marketplace: true, storageDir: true, fileStorage: true, tokenCache: true, sessions: true, signIn: true
}

/**
 * The services the plugin serves: the prebuilt `helpdesk`, or services built
 * on `store` with the service options. A service option next to a prebuilt
 * `helpdesk` would be silently ignored, so it stops the start-up instead (the
 * types already refuse it; this is for JavaScript callers).
 */
export function helpdeskServices (options: HelpdeskPluginOptions): Helpdesk {
  if (options.helpdesk !== undefined) {
    const given = options as unknown as Record<string, unknown>
    const misplaced = Object.keys(builtWith).filter((key) => given[key] !== undefined)
    const mail = (options.mail ?? {}) as Record<string, unknown>
    misplaced.push(...Object.keys(mail).filter((key) => key !== 'inboundSecret' && mail[key] !== undefined).map((key) => `mail.${key}`))
    if (misplaced.length > 0) {
      throw new Error(`@helpdesk/fastify: ${misplaced.map((key) => `\`${key}\``).join(', ')} cannot be used with a prebuilt \`helpdesk\`: ` +
        'its services were built by createHelpdesk(...), so pass them there (only `mail.inboundSecret` stays in the plugin options).')
    }
    return options.helpdesk
  }
  if (options.store === undefined) throw new Error('@helpdesk/fastify: pass `store` (or `helpdesk`) in the plugin options.')
  return buildHelpdesk(options.store, options)
}

/**
 * The services on `store` built from the service options: what the plugin
 * does when given `store`, and what `helpdesk serve` builds before it
 * registers the plugin with them (defaults: registration on, files under
 * `./storage`, argon2id, no marketplace, no mail).
 */
export function buildHelpdesk (store: Store, options: HelpdeskServiceOptions): Helpdesk {
  return createHelpdesk({
    store,
    ...(options.hasher !== undefined ? { hasher: options.hasher } : {}),
    ...(options.marketplace !== undefined ? { marketplace: options.marketplace } : {}),
    fileStorage: options.fileStorage ?? createLocalFileStorage(options.storageDir ?? './storage'),
    registration: options.registration ?? true,
    ...(options.tokenCache !== undefined ? { tokenCache: options.tokenCache } : {}),
    ...(options.sessions !== undefined ? { sessions: options.sessions } : {}),
    ...(options.signIn !== undefined ? { signIn: options.signIn } : {}),
    ...(options.mail !== undefined ? { mail: helpdeskMailSettings(options.mail) } : {})
  })
}

/** Core's mail settings (`createHelpdesk({ mail })`) from the plugin's `mail` option, with an SMTP transport for `smtpUrl`. */
export function helpdeskMailSettings (mail: HelpdeskMailOptions): NonNullable<HelpdeskOptions['mail']> {
  const { smtpUrl, transport, inboundSecret: _secret, ...settings } = mail
  const chosen = transport ?? (smtpUrl !== undefined && smtpUrl !== '' ? createSmtpTransport(smtpUrl) : undefined)
  return { ...settings, transport: chosen }
}
