import type { ServiceContext } from '../context.js'
import type { Store } from '../store.js'
import { importTickets, type TicketImport } from '../tickets/ticket-import.js'
import type { NewComment } from '../tickets/ticket-store.js'
import { commentPreview } from '../tickets/comment.js'
import { checkedBody } from '../tickets/ticket-input.js'
import { ValidationError, type FieldErrors } from '../errors.js'
import type { ActorInput } from '../users/actor.js'
import { recordedActor } from '../history/ticket-history.js'
import { CustomerBatch } from '../users/customer-creation.js'
import type { NewUser } from '../users/user-store.js'
import { Role, type RoleNumber, type User, type UserStatusNumber } from '../users/user.js'
import type { ImportSourceType } from './import-job.js'
import { failOn, type ImportedComment, type ImportedPerson, type ImportItem } from './import-records.js'
import { ImportRecordError } from './import-source.js'
import { nowString } from '../context.js'
import { CommentType } from '../tickets/comment.js'
import { TicketStatus } from '../tickets/ticket.js'
import type { SlaConfigCache, SlaTicket } from '../sla/sla-evaluation.js'
import { importedTicketSla, type ImportedConversation } from '../sla/sla-import.js'
import type { TicketSlaDue, TicketSlaState } from '../sla/sla-store.js'

const plural: Record<ImportSourceType, string> = {
  category: 'categories', agent: 'agents', customer: 'customers', ticket: 'tickets', comment: 'comments'
}

/** External id -> local id for one batch: what earlier imports remembered, plus what this batch creates. */
class ExternalIds {
  private readonly known = new Map<ImportSourceType, Map<string, number>>()
  private readonly fresh = new Map<ImportSourceType, Array<[string, number]>>()

  /** Loads the mappings of every id the batch names: one query per kind. */
  static async load (tx: Store, items: ImportItem[]): Promise<ExternalIds> {
    const wanted = new Map<ImportSourceType, Set<string>>()
    const want = (type: ImportSourceType, id: string | null): void => {
      if (id === null) return
      const set = wanted.get(type) ?? new Set<string>()
      wanted.set(type, set.add(id))
    }
    const wantComment = (comment: ImportedComment): void => {
      want('comment', comment.externalId)
      if (comment.author !== null) want(comment.author.kind, comment.author.id)
    }
    for (const item of items) {
      switch (item.kind) {
        case 'category': want('category', item.externalId); break
        case 'agent': want('agent', item.externalId); item.categories.forEach((id) => { want('category', id) }); break
        case 'customer': want('customer', item.externalId); break
        case 'ticket':
          want('ticket', item.externalId); want('customer', item.customer); want('category', item.category); want('agent', item.agent)
          item.comments.forEach(wantComment)
          break
        case 'comment': want('ticket', item.ticket); wantComment(item); break
      }
    }
    const ids = new ExternalIds()
    for (const [type, set] of wanted) ids.known.set(type, await tx.imports.localIds(type, [...set]))
    return ids
  }

  get (type: ImportSourceType, externalId: string): number | undefined {
    return this.known.get(type)?.get(externalId)
  }

  /** The local id, or an error naming the record and the missing reference. */
  resolve (type: ImportSourceType, externalId: string, location: string): number {
    const id = this.get(type, externalId)
    if (id === undefined) {
      throw new ImportRecordError(location, `unknown ${type} "${externalId}" (the file must list ${plural[type]} before the records that refer to them).`)
    }
    return id
  }

  add (type: ImportSourceType, externalId: string, localId: number): void {
    const map = this.known.get(type) ?? new Map<string, number>()
    this.known.set(type, map.set(externalId, localId))
    const list = this.fresh.get(type) ?? []
    this.fresh.set(type, list)
    list.push([externalId, localId])
  }

  async save (tx: Store, importId: number | null): Promise<void> {
    for (const [type, pairs] of this.fresh) await tx.imports.remember(type, importId, pairs)
  }
}

interface PendingComment { comment: ImportedComment, ticket: { id: number } | { pending: number } }

/**
 * Writes one batch of checked records inside `tx` (the caller's transaction,
 * opened by `ctx.events`: a throw leaves nothing of the batch). Records
 * already imported (their external id is remembered) and people whose email
 * exists are not created again. New customers are created by `by` through a
 * `CustomerBatch`: one `CustomerCreated` each, emitted together at the end of
 * the batch, in its transaction. Returns how many rows it created.
 */
export class ImportBatchWriter {
  private created = 0
  private readonly newTickets: TicketImport[] = []
  /** External id -> index in `newTickets`. */
  private readonly pendingTickets = new Map<string, number>()
  private readonly newTicketLocations: string[] = []
  private readonly comments: PendingComment[] = []
  private readonly owners = new Map<number, number>()
  /** Tickets of earlier imports that the batch names again (a re-run): given an SLA state if they have none. */
  private readonly knownTickets = new Set<number>()
  private readonly customers: CustomerBatch

  private constructor (
    private readonly ctx: ServiceContext,
    private readonly tx: Store,
    private readonly ids: ExternalIds,
    private readonly by: ActorInput,
    private readonly importId: number | null,
    private readonly sla: SlaConfigCache | null
  ) {
    this.customers = new CustomerBatch(ctx, tx, by)
  }

  /** `sla`: the SLA configuration; with it, the batch's tickets get their SLA state in the same transaction (`recordSla`). */
  static async write (ctx: ServiceContext, tx: Store, importId: number | null, items: ImportItem[], by: ActorInput, sla: SlaConfigCache | null = null): Promise<number> {
    const writer = new ImportBatchWriter(ctx, tx, await ExternalIds.load(tx, items), by, importId, sla)
    for (const item of items) await writer.add(item)
    await writer.flush()
    await writer.customers.emit()
    await writer.ids.save(tx, importId)
    return writer.created
  }

  private async add (item: ImportItem): Promise<void> {
    switch (item.kind) {
      case 'category': {
        if (this.ids.get('category', item.externalId) !== undefined) return
        const category = await this.tx.categories.create({ ...item.category, order: await this.tx.categories.nextOrder() })
        this.created++
        this.ids.add('category', item.externalId, category.id)
        return
      }
      case 'agent': {
        if (this.ids.get('agent', item.externalId) !== undefined) return
        const categories = item.categories.map((id) => this.ids.resolve('category', id, item.location))
        const { user, isNew } = await this.person(item.location, item.person, item.role, { permissions: item.permissions })
        if (isNew) await this.tx.users.setCategories(user.id, [...new Set(categories)])
        this.ids.add('agent', item.externalId, user.id)
        return
      }
      case 'customer': {
        if (this.ids.get('customer', item.externalId) !== undefined) return
        const { user } = await this.person(item.location, item.person, Role.Customer, {
          company: item.company, status: item.status, marketplace_username: item.marketplace_username
        })
        this.ids.add('customer', item.externalId, user.id)
        return
      }
      case 'ticket': {
        const existing = this.ids.get('ticket', item.externalId)
        if (existing !== undefined) {
          this.knownTickets.add(existing)
          for (const comment of item.comments) this.comments.push({ comment, ticket: { id: existing } })
          return
        }
        if (this.pendingTickets.has(item.externalId)) return
        const owner = this.ids.resolve('customer', item.customer, item.location)
        const agent = item.agent === null ? null : this.ids.resolve('agent', item.agent, item.location)
        this.newTickets.push({
          user_id: owner,
          category_id: this.ids.resolve('category', item.category, item.location),
          status: item.status,
          private: item.private,
          title: item.title,
          body: item.body,
          assigned_agent_id: agent,
          purchase_code: item.purchase_code,
          ...(item.created_at !== null ? { created_at: item.created_at } : {}),
          ...(item.updated_at !== null ? { updated_at: item.updated_at } : {})
        })
        const pending = this.newTickets.length - 1
        this.pendingTickets.set(item.externalId, pending)
        this.newTicketLocations.push(item.location)
        for (const comment of item.comments) this.comments.push({ comment, ticket: { pending } })
        return
      }
      case 'comment': {
        const known = this.ids.get('ticket', item.ticket)
        const pending = this.pendingTickets.get(item.ticket)
        if (known !== undefined) this.comments.push({ comment: item, ticket: { id: known } })
        else if (pending !== undefined) this.comments.push({ comment: item, ticket: { pending } })
        else this.ids.resolve('ticket', item.ticket, item.location)
      }
    }
  }

  /** An existing user with the email (of a matching role), or a new one. */
  private async person (
    location: string, person: ImportedPerson, role: RoleNumber,
    extra: { company?: string | null, status?: UserStatusNumber, marketplace_username?: string | null, permissions?: User['permissions'] }
  ): Promise<{ user: User, isNew: boolean }> {
    const existing = await this.tx.users.findByEmail(person.email)
    if (existing !== null) {
      if ((existing.role === Role.Customer) !== (role === Role.Customer)) {
        throw new ImportRecordError(location, `the email ${person.email} belongs to ${existing.role === Role.Customer ? 'a customer' : 'a staff account'}.`)
      }
      return { user: existing, isNew: false }
    }
    const row: NewUser = {
      role,
      first_name: person.first_name,
      last_name: person.last_name,
      email: person.email,
      status: extra.status ?? 1,
      password_hash: person.password === null ? null : await this.ctx.hasher.hash(person.password),
      ...(extra.company !== undefined ? { company: extra.company } : {}),
      ...(extra.marketplace_username !== undefined ? { marketplace_username: extra.marketplace_username } : {}),
      ...(extra.permissions !== undefined ? { permissions: extra.permissions } : {})
    }
    const user = role === Role.Customer ? await this.customers.create(row) : await this.tx.users.create(row)
    this.created++
    return { user, isNew: true }
  }

  /** Inserts the batch's new tickets in one go (the tickets module's import), then the comments in file order. */
  private async flush (): Promise<void> {
    const ticketIds = await this.insertTickets()
    this.created += ticketIds.length
    for (const [externalId, index] of this.pendingTickets) {
      const id = ticketIds[index]!
      this.ids.add('ticket', externalId, id)
      this.owners.set(id, this.newTickets[index]!.user_id)
    }
    await this.recordImported(ticketIds)
    const seen = new Set<string>()
    const rows: NewComment[] = []
    const externalIds: string[] = []
    const now = nowString(this.ctx)
    const conversations = new Map<number, { replies: Array<{ at: string, staff: boolean }>, last_activity_at: string | null }>()
    for (const { comment, ticket } of this.comments) {
      if (this.ids.get('comment', comment.externalId) !== undefined || seen.has(comment.externalId)) continue
      seen.add(comment.externalId)
      const ticketId = 'id' in ticket ? ticket.id : ticketIds[ticket.pending]!
      const errors: FieldErrors = {}
      const body = checkedBody(errors, comment.body)
      failOn(errors, comment.location)
      rows.push({
        ticket_id: ticketId,
        user_id: comment.author === null ? await this.ownerOf(ticketId) : this.ids.resolve(comment.author.kind, comment.author.id, comment.location),
        body,
        preview: commentPreview(body),
        type: comment.type,
        private: comment.private,
        ...(comment.created_at !== null ? { created_at: comment.created_at } : {})
      })
      externalIds.push(comment.externalId)
      const at = comment.created_at ?? now
      const conversation = conversations.get(ticketId) ?? { replies: [], last_activity_at: null }
      conversations.set(ticketId, conversation)
      if (comment.type === CommentType.Reply) conversation.replies.push({ at, staff: comment.author?.kind === 'agent' })
      if (conversation.last_activity_at === null || at > conversation.last_activity_at) conversation.last_activity_at = at
    }
    if (rows.length > 0) {
      const commentIds = await this.tx.comments.createMany(rows)
      this.created += commentIds.length
      commentIds.forEach((id, index) => { this.ids.add('comment', externalIds[index]!, id) })
    }
    await this.recordSla(ticketIds, conversations, now)
  }

  /**
   * The SLA state of the batch's new tickets, and of earlier tickets that got
   * imported replies, in the batch's transaction (docs/sla.md, "Imported
   * tickets"): one configuration read (cached), the clocks computed in
   * memory from the imported times, the states and due times written in
   * multi-row statements. Tickets of earlier imports that the batch names
   * again (a re-run) or adds comments to and that have no state (imported
   * before imports kept one) get one built from their stored conversation.
   */
  private async recordSla (ticketIds: number[], conversations: Map<number, ImportedConversation>, now: string): Promise<void> {
    if (this.sla === null) return
    const config = await this.sla.load(this.tx)
    if (config.policies.length === 0) return
    const tickets: SlaTicket[] = [...this.pendingTickets.values()].map((index) => {
      const item = this.newTickets[index]!
      const created = item.created_at ?? now
      return {
        id: ticketIds[index]!,
        created_at: created,
        updated_at: item.updated_at ?? created,
        status: item.status ?? TicketStatus.Open,
        category_id: item.category_id,
        user_id: item.user_id,
        additional: { fields: item.fields ?? {} }
      }
    })
    const fresh = new Set(tickets.map((t) => t.id))
    const earlier = [...new Set([...this.knownTickets, ...conversations.keys()])].filter((id) => !fresh.has(id))
    // Without a state (imported before imports kept one): built from the stored conversation.
    // With one: re-evaluated only when the batch added replies (a plain re-run reads no state).
    const stateless = await this.tx.sla.withoutState(earlier)
    const missing = new Set(stateless)
    const withReplies = earlier.filter((id) => !missing.has(id) && (conversations.get(id)?.replies.length ?? 0) > 0)
    const previous = withReplies.length === 0 ? new Map<number, TicketSlaState>() : await this.tx.sla.ticketStates(withReplies)
    const replied = withReplies.filter((id) => previous.has(id))
    if (stateless.length > 0) {
      for (const [id, conversation] of await this.tx.sla.conversations(stateless)) conversations.set(id, conversation)
      for (const id of stateless) if (!conversations.has(id)) conversations.set(id, { replies: [], last_activity_at: null })
    }
    if (replied.length + stateless.length > 0) tickets.push(...await this.tx.tickets.findByIds([...replied, ...stateless]))
    if (tickets.length === 0) return
    const emails = new Map<number, string>()
    if (config.needs_email) {
      for (const user of await this.tx.users.findMany([...new Set(tickets.map((t) => t.user_id))])) emails.set(user.id, user.email)
    }
    const at = this.ctx.clock.now()
    const entries: Array<{ state: TicketSlaState, due: TicketSlaDue | null }> = []
    for (const ticket of tickets) {
      const before = previous.get(ticket.id) ?? null
      const result = importedTicketSla(config, before, ticket, config.needs_email ? emails.get(ticket.user_id) ?? null : undefined,
        conversations.get(ticket.id) ?? { replies: [], last_activity_at: null }, at)
      const due = result.due
      // A new ticket's columns are null already: written only when something is due.
      const unchanged = before === null && due.first_response_due_at === null && due.next_response_due_at === null &&
        due.resolution_due_at === null && due.sla_next_due_at === null
      entries.push({ state: result.state, due: unchanged ? null : due })
    }
    await this.tx.sla.saveTicketStates(entries)
  }

  /**
   * One `imported` history entry per new ticket, through the import door: where it came from (the
   * import job and the record's external id) and the state it arrived in. One statement per batch.
   */
  private async recordImported (ticketIds: number[]): Promise<void> {
    if (ticketIds.length === 0) return
    const who = { ...recordedActor(this.by), door: 'import' as const }
    const entries = [...this.pendingTickets].map(([externalId, index]) => {
      const ticket = this.newTickets[index]!
      return {
        ticket_id: ticketIds[index]!,
        ...who,
        field: 'imported',
        old_value: null,
        new_value: { import_id: this.importId, external_id: externalId, status: ticket.status ?? null, category: ticket.category_id, assignee: ticket.assigned_agent_id ?? null },
        public: false
      }
    })
    await this.tx.ticketHistory.add(entries)
  }

  /** The tickets module's import; its errors (keyed `N.field`) are reported on record N. */
  private async insertTickets (): Promise<number[]> {
    try {
      return await importTickets(this.ctx, this.tx, this.newTickets)
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      const [key, messages] = Object.entries(error.errors)[0] ?? []
      const index = Number(key?.split('.')[0])
      const location = this.newTicketLocations[index]
      if (location === undefined) throw error
      throw new ImportRecordError(location, messages?.[0] ?? error.message)
    }
  }

  private async ownerOf (ticketId: number): Promise<number> {
    let owner = this.owners.get(ticketId)
    if (owner === undefined) {
      owner = (await this.tx.tickets.findById(ticketId))?.user_id
      if (owner === undefined) throw new Error(`ticket ${ticketId} vanished during the import`)
      this.owners.set(ticketId, owner)
    }
    return owner
  }
}
