import type { Knex } from 'knex'

const isPostgres = (knex: Knex): boolean => ['pg', 'postgres', 'postgresql'].includes(String(knex.client.config.client))

/*
 * FROZEN: the search DDL of migrations 0002 and 0008 as they ran. Imported by
 * migrations only; never edit (see README.md).
 *
 * Tickets' full-text index: SQLite, a contentless FTS5 table `tickets_search`
 * (rowid = ticket id) dropped with its row by a trigger, and the table of
 * indexed words `tickets_search_terms` (prefix expansion); PostgreSQL, a
 * stored tsvector column `search_document` with a GIN index. Owners'
 * substring indexes: an FTS5 trigram table `users_substring` kept by
 * triggers (SQLite), trigram GIN indexes (PostgreSQL).
 */

const ownerColumns = ['first_name', 'last_name', 'email', 'marketplace_username']

export async function createTicketSearchIndex (knex: Knex): Promise<void> {
  if (isPostgres(knex)) {
    await knex.raw(`alter table ?? add column ?? tsvector not null default ''::tsvector`, ['tickets', 'search_document'])
    await knex.raw('create index ?? on ?? using gin (??) with (fastupdate = off)', ['tickets_search_document_index', 'tickets', 'search_document'])
    return
  }
  await knex.raw(`create virtual table ?? using fts5(document, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`, ['tickets_search'])
  await knex.raw('create trigger ?? after delete on ?? begin delete from ?? where rowid = old.id; end', ['tickets_search_delete', 'tickets', 'tickets_search'])
  await createTicketSearchTerms(knex)
}

export async function dropTicketSearchIndex (knex: Knex): Promise<void> {
  if (isPostgres(knex)) {
    await knex.raw('drop index if exists ??', ['tickets_search_document_index'])
    await knex.raw('alter table ?? drop column if exists ??', ['tickets', 'search_document'])
    return
  }
  await knex.raw('drop table if exists ??', ['tickets_search_terms'])
  await knex.raw('drop trigger if exists ??', ['tickets_search_delete'])
  await knex.raw('drop table if exists ??', ['tickets_search'])
}

/** SQLite: the table of indexed words, filled once from the index's vocabulary (idempotent; nothing on PostgreSQL). */
export async function createTicketSearchTerms (knex: Knex): Promise<void> {
  if (isPostgres(knex)) return
  await knex.raw('create table if not exists ?? (term text primary key) without rowid', ['tickets_search_terms'])
  await knex.raw(`create virtual table temp.?? using fts5vocab(main, ??, 'row')`, ['tickets_search_vocabulary', 'tickets_search'])
  await knex.raw('insert or ignore into ?? (term) select term from temp.??', ['tickets_search_terms', 'tickets_search_vocabulary'])
  await knex.raw('drop table temp.??', ['tickets_search_vocabulary'])
}

/** Substring indexes of the owners' searched columns (idempotent). */
export async function createOwnerSubstringIndexes (knex: Knex): Promise<void> {
  if (isPostgres(knex)) {
    await knex.raw('create extension if not exists pg_trgm')
    for (const column of ownerColumns) {
      await knex.raw('create index if not exists ?? on ?? using gin (?? gin_trgm_ops) with (fastupdate = off)', [`users_${column}_trgm_index`, 'users', column])
    }
    return
  }
  const list = ownerColumns.join(', ')
  const values = (prefix: string): string => ownerColumns.map((c) => `${prefix}.${c}`).join(', ')
  await knex.raw(`create virtual table if not exists users_substring using fts5(${list}, content='users', content_rowid='id', tokenize='trigram')`)
  await knex.raw(`insert into users_substring (users_substring) values ('rebuild')`)
  await knex.raw(`create trigger if not exists users_substring_insert after insert on users begin
      insert into users_substring (rowid, ${list}) values (new.id, ${values('new')}); end`)
  await knex.raw(`create trigger if not exists users_substring_delete after delete on users begin
      insert into users_substring (users_substring, rowid, ${list}) values ('delete', old.id, ${values('old')}); end`)
  await knex.raw(`create trigger if not exists users_substring_update after update of ${list} on users begin
      insert into users_substring (users_substring, rowid, ${list}) values ('delete', old.id, ${values('old')});
      insert into users_substring (rowid, ${list}) values (new.id, ${values('new')}); end`)
}

export async function dropOwnerSubstringIndexes (knex: Knex): Promise<void> {
  if (isPostgres(knex)) {
    for (const column of ownerColumns) await knex.raw('drop index if exists ??', [`users_${column}_trgm_index`])
    return
  }
  for (const op of ['insert', 'delete', 'update']) await knex.raw(`drop trigger if exists users_substring_${op}`)
  await knex.raw('drop table if exists users_substring')
}
