import type { ServiceContext } from '../context.js'
import { UnauthenticatedError } from '../errors.js'
import { ensure, hasPermission } from '../users/user-policy.js'
import { actsAsStaff, isPerson, personOf, type ActorInput } from '../users/actor.js'
import { CollectionVisibility, type CollectionVisibilityNumber } from './collection.js'
import { customerPurchaseStanding } from './marketplace-access.js'

/**
 * What one reader may see of the knowledge base (CONTRACT §15). The store
 * applies it the same way to every list and single view of collections and
 * articles, so this is the only place the rule is decided.
 */
export interface KnowledgeBaseScope {
  /** Collection visibility levels the reader may read; null for all (staff). */
  visibilities: CollectionVisibilityNumber[] | null
  /** Whether unpublished articles (drafts) are visible. */
  drafts: boolean
}

const staffScope: KnowledgeBaseScope = { visibilities: null, drafts: true }

/**
 * Anonymous readers see Public collections; signed-in users also Logged In
 * ones; a customer with a valid purchase code on one of their tickets also
 * level 3, and with one still in support level 4 (only with a marketplace
 * adapter). Staff (and the system) see everything, drafts included; nobody
 * else sees drafts. Anyone who is not a signed-in person (the anonymous, a
 * mail sender) reads as the anonymous do.
 */
export async function knowledgeBaseScope (ctx: ServiceContext, actor: ActorInput): Promise<KnowledgeBaseScope> {
  if (actsAsStaff(actor)) return staffScope
  const person = isPerson(actor) ? personOf(actor) : null
  if (person === null) return { visibilities: [CollectionVisibility.Public], drafts: false }
  const visibilities: CollectionVisibilityNumber[] = [CollectionVisibility.Public, CollectionVisibility.LoggedIn]
  const standing = await customerPurchaseStanding(ctx, person.id)
  if (standing !== 'invalid') visibilities.push(CollectionVisibility.PurchaseCode)
  if (standing === 'supported') visibilities.push(CollectionVisibility.ActiveSupport)
  return { visibilities, drafts: false }
}

/** Editing collections and articles: administrators, and agents with `manage_articles`. */
export function canManageArticles (actor: ActorInput): boolean {
  return hasPermission(actor, 'manage_articles')
}

/** 401 for the anonymous, 403 for anyone else who may not. */
export function ensureCanManageArticles (actor: ActorInput): void {
  if (!isPerson(actor) && actor.kind === 'anonymous') throw new UnauthenticatedError()
  ensure(canManageArticles(actor))
}
