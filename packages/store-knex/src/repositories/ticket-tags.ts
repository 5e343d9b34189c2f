import type { Knex } from 'knex'
import { PRIORITIES, priorityRank, ValidationError, type Priority, type Tag, type Ticket, type WithIncludes } from '@helpdesk/core'
import { dialectOfKnex } from '../dialects/index.js'
import type { IncludeLoader } from '../list/list-mapping.js'

type Item = WithIncludes<Ticket>

/** Tickets' tags by ticket, by name, for any number of tickets in one query. */
export async function ticketTagsOf (db: Knex, ticketIds: number[]): Promise<Map<number, Tag[]>> {
  const byTicket = new Map<number, Tag[]>()
  if (ticketIds.length === 0) return byTicket
  const rows = await db('ticket_tags')
    .join('tags', 'tags.id', 'ticket_tags.tag_id')
    .select('ticket_tags.ticket_id', 'tags.id', 'tags.name')
    .whereIn('ticket_tags.ticket_id', [...new Set(ticketIds)])
    .orderBy([{ column: 'tags.name' }, { column: 'tags.id' }]) as Array<Tag & { ticket_id: number }>
  for (const row of rows) {
    const list = byTicket.get(Number(row.ticket_id)) ?? []
    list.push({ id: Number(row.id), name: row.name })
    byTicket.set(Number(row.ticket_id), list)
  }
  return byTicket
}

/** Replaces a ticket's tags by name, creating the names the shared tag table lacks. */
export async function setTicketTags (db: Knex, ticketId: number, names: string[]): Promise<Tag[]> {
  // Statements written out and prepared once per connection and name count (a trigger's tags are on the write path of a ticket change).
  const dialect = dialectOfKnex(db)
  await dialect.run(db, 'delete from "ticket_tags" where "ticket_id" = ?', [ticketId])
  const unique = [...new Set(names)]
  if (unique.length === 0) return []
  const list = unique.map(() => '?').join(', ')
  // Concurrent writers may create the same tag: the unique name makes the second insert a no-op.
  await dialect.run(db, `insert into "tags" ("name") values ${unique.map(() => '(?)').join(', ')} on conflict ("name") do nothing`, unique)
  const tags = await dialect.run<Tag>(db, `select "id", "name" from "tags" where "name" in (${list})`, unique)
  await dialect.run(db, `insert into "ticket_tags" ("tag_id", "ticket_id") values ${tags.map(() => '(?, ?)').join(', ')}`, tags.flatMap((tag) => [tag.id, ticketId]))
  return tags.map((tag) => ({ id: Number(tag.id), name: tag.name })).sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id)
}

/** The `tags` include: the page's tags in one query. */
export const ticketTagsInclude: IncludeLoader<Item> = async (db, items, _query, key) => {
  const byTicket = await ticketTagsOf(db, items.map((item) => item.id))
  for (const item of items) item[key] = byTicket.get(item.id) ?? []
}

/** `filter[priority]=high,urgent`: by rank. */
export function wherePriorityIn (qb: Knex.QueryBuilder, values: string[]): void {
  const wrong = values.find((value) => !(PRIORITIES as readonly string[]).includes(value))
  if (wrong !== undefined) throw ValidationError.field('filter.priority', `The priority filter takes ${PRIORITIES.join(', ')}.`)
  void qb.whereIn('tickets.priority', values.map((value) => priorityRank(value as Priority)))
}

/** `filter[tags]=billing,refund`: tickets with any of the tags (names compared as tickets keep them, lowercased). */
export function whereTaggedAny (qb: Knex.QueryBuilder, values: string[]): void {
  const names = [...new Set(values.map((value) => value.trim().replace(/\s+/g, ' ').toLowerCase()).filter((name) => name !== ''))]
  if (names.length === 0) {
    void qb.whereRaw('1 = 0')
    return
  }
  void qb.whereExists((sub) => {
    void sub.select('ticket_tags.ticket_id').from('ticket_tags').join('tags', 'tags.id', 'ticket_tags.tag_id')
      .whereRaw('ticket_tags.ticket_id = tickets.id').whereIn('tags.name', names)
  })
}
