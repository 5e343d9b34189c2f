import type { Knex } from 'knex'
import { createOwnerSubstringIndexes, createTicketSearchTerms } from './frozen/search-0002.js'

/**
 * What ticket search needs at millions of tickets, added to databases made
 * before it (new databases get it from the tickets migration): on SQLite the
 * table of indexed words that expands prefixes, and the trigram index of
 * owners' names and emails. Both are idempotent; PostgreSQL already has its
 * trigram indexes and needs no word table.
 */
export async function up (knex: Knex): Promise<void> {
  await createTicketSearchTerms(knex)
  await createOwnerSubstringIndexes(knex)
}

/** Nothing to undo: from here on these belong to the search index, which the tickets migration's `down` removes. */
export async function down (): Promise<void> {}
