import type { ServiceContext } from '../context.js'
import { NotFoundError, ValidationError } from '../errors.js'
import type { ListQuery, Page } from '../list/list-query.js'
import type { Store, WithIncludes } from '../store.js'
import { ticketScope } from '../tickets/ticket-policy.js'
import { requirePerson, type ActorInput, type PersonActor } from '../users/actor.js'
import { DEFAULT_VIEW_SORT, VIEW_LIMITS, type SavedView, type ViewInput, type ViewPatch } from './view.js'
import { builtInViewQuery, viewTicketQuery, viewValues } from './view-input.js'
import { ensureCanManageView, viewScope } from './view-policy.js'

/**
 * Views of the ticket list (issue 35): built-in ones, and the ones agents
 * save from a filter and sort of `GET /tickets`, private or shared. Staff
 * only. `include=count` counts each view's tickets in the caller's ticket
 * scope, by the ticket list's own filters: the whole page's counts in one
 * statement (`tickets.countMany`), whatever the page size; a view holding
 * `filter[search]` adds the few bounded reads that plan its search.
 */
export class ViewService {
  constructor (private readonly ctx: ServiceContext) {}

  async list (caller: ActorInput, query: ListQuery): Promise<Page<WithIncludes<SavedView>>> {
    const actor = requirePerson(caller)
    const counted = query.include.includes('count')
    const page = await this.ctx.store.views.list(viewScope(actor), { ...query, include: query.include.filter((name) => name !== 'count') })
    const items = page.items.map((view) => this.resolved(actor, view))
    if (counted) {
      const scope = await ticketScope(this.ctx.store, actor)
      const counts = await this.ctx.store.tickets.countMany(scope, items.map((view) => viewTicketQuery(view)))
      items.forEach((view, i) => {
        const { total, lowerBound } = counts[i] as { total: number, lowerBound: boolean }
        view.count = total
        if (lowerBound) view.count_is_lower_bound = true
      })
    }
    return { ...page, items }
  }

  async view (caller: ActorInput, id: number): Promise<SavedView> {
    const actor = requirePerson(caller)
    const view = await this.ctx.store.views.findVisible(viewScope(actor), id)
    if (view === null) throw new NotFoundError('View')
    return this.resolved(actor, view)
  }

  /** A private view for any staff member, or a shared one (`shared: true`), from a filter and sort of the ticket list. */
  async create (caller: ActorInput, input: ViewInput): Promise<SavedView> {
    const actor = requirePerson(caller)
    viewScope(actor)
    const values = viewValues({ name: '', shared: false, filters: {}, sort: DEFAULT_VIEW_SORT }, input)
    return await this.ctx.store.transaction(async (tx) => {
      if (await tx.views.countOwned(actor.id) >= VIEW_LIMITS.savedPerOwner) {
        throw ValidationError.field('name', `An agent may save at most ${VIEW_LIMITS.savedPerOwner} views: delete one first.`)
      }
      return await tx.views.create({ ...values, user_id: actor.id })
    })
  }

  /** Renames, re-shares or changes the filters of a view the caller may manage (owner; shared views also administrators). */
  async update (caller: ActorInput, id: number, patch: ViewPatch): Promise<SavedView> {
    const actor = requirePerson(caller)
    return await this.ctx.store.transaction(async (tx) => {
      const current = await manageable(tx, actor, id)
      const values = viewValues(current, patch)
      // An administrator may edit a colleague's shared view, but making it private is its owner's call.
      if (values.shared !== current.shared) ensureCanManageView(actor, { key: null, shared: false, user_id: current.user_id })
      const updated = await tx.views.update(id, values)
      if (updated === null) throw new NotFoundError('View')
      return updated
    })
  }

  async delete (caller: ActorInput, id: number): Promise<void> {
    const actor = requirePerson(caller)
    await this.ctx.store.transaction(async (tx) => {
      await manageable(tx, actor, id)
      await tx.views.delete(id)
    })
  }

  /** A built-in view with its filters for this caller now (mine: their id; closed: the last seven days). */
  private resolved<T extends SavedView> (actor: PersonActor, view: T): T {
    if (view.key === null) return view
    return { ...view, ...builtInViewQuery(view.key, actor.id, this.ctx.clock.now()) }
  }
}

/** A view the caller sees (404 otherwise) and may manage (403 otherwise). */
async function manageable (store: Store, actor: ActorInput, id: number): Promise<SavedView> {
  const view = await store.views.findVisible(viewScope(actor), id)
  if (view === null) throw new NotFoundError('View')
  ensureCanManageView(actor, view)
  return view
}
