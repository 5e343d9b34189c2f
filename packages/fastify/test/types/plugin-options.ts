// Type-checked by plugin-options.test.ts, never run: every line below a
// `@ts-expect-error` must fail to compile (else tsc reports the unused
// directive) and every other line must compile.
import Fastify from 'fastify'
import helpdesk, { type HelpdeskPluginOptions } from '@helpdesk/fastify'
import { createHelpdesk, type FileStorage, type MarketplaceVerifier, type PasswordHasher, type Store } from '@helpdesk/core'

export async function register (store: Store, fileStorage: FileStorage, marketplace: MarketplaceVerifier, hasher: PasswordHasher): Promise<void> {
  const desk = createHelpdesk({ store, registration: false, marketplace, fileStorage })
  const app = Fastify()

  // The plugin builds the services on `store`, with the service options.
  await app.register(helpdesk, {
    store,
    registration: false,
    hasher,
    marketplace,
    storageDir: './files',
    fileStorage,
    tokenCache: { ttlMs: 0 },
    mail: { from: 'support@example.com', smtpUrl: 'smtp://127.0.0.1:2525', inboundSecret: 'secret' },
    prefix: '/support/api',
    uploadQuota: { maxFiles: 3 }
  })
  // Prebuilt services, with the HTTP options (and the inbound mail secret) only.
  await app.register(helpdesk, { helpdesk: desk, prefix: '/hd', rateLimit: false, workers: false, onEvent: () => {}, mail: { inboundSecret: 'secret' } })
  const prebuilt: HelpdeskPluginOptions = { helpdesk: desk }
  await app.register(helpdesk, prebuilt)

  // @ts-expect-error registration is createHelpdesk's when the services are prebuilt
  await app.register(helpdesk, { helpdesk: desk, registration: false })
  // @ts-expect-error marketplace too
  await app.register(helpdesk, { helpdesk: desk, marketplace })
  // @ts-expect-error fileStorage too
  await app.register(helpdesk, { helpdesk: desk, fileStorage })
  // @ts-expect-error storageDir too
  await app.register(helpdesk, { helpdesk: desk, storageDir: './files' })
  // @ts-expect-error hasher too
  await app.register(helpdesk, { helpdesk: desk, hasher })
  // @ts-expect-error tokenCache too
  await app.register(helpdesk, { helpdesk: desk, tokenCache: { ttlMs: 0 } })
  // @ts-expect-error the mail settings too (only `inboundSecret` stays with the plugin)
  await app.register(helpdesk, { helpdesk: desk, mail: { from: 'support@example.com', inboundSecret: 'secret' } })
  // @ts-expect-error a store and prebuilt services: one of the two
  await app.register(helpdesk, { helpdesk: desk, store })
  // @ts-expect-error neither
  await app.register(helpdesk, { prefix: '/hd' })
  // @ts-expect-error not through a variable of the union either
  const wrong: HelpdeskPluginOptions = { helpdesk: desk, marketplace }
  await app.register(helpdesk, wrong)
}
