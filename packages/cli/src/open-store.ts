import { createHelpdesk, UnavailableError, type Helpdesk } from '@helpdesk/core'
import { createKnexStore, type KnexStore } from '@helpdesk/store-knex'
import { CliError, redact } from './config.js'

/** Opens the store and checks the database answers, with a one-line error when it does not. */
export async function openStore (url: string): Promise<KnexStore> {
  const store = createKnexStore({ url })
  try {
    await store.ping()
  } catch (error) {
    await store.close().catch(() => {})
    const reason = error instanceof UnavailableError ? 'connection refused or timed out' : (error as Error).message
    throw new CliError(`cannot reach the database at ${redact(url)}: ${reason}`)
  }
  return store
}

/** Runs `fn` with a migrated store and the services on it (`make`, default `createHelpdesk`), closing the store afterwards. */
export async function withHelpdesk<T> (
  url: string, fn: (helpdesk: Helpdesk, store: KnexStore) => Promise<T>, make: (store: KnexStore) => Helpdesk = (store) => createHelpdesk({ store })
): Promise<T> {
  const store = await openStore(url)
  try {
    await store.migrate()
    return await fn(make(store), store)
  } finally {
    await store.close()
  }
}
