import type { Knex } from 'knex'
import {
  agentList, customerList, Role, UserStatus,
  type ListQuery, type NewUser, type NotificationSettings, type Page, type User, type UserKind,
  type UserPatch, type UserRepository, type WithIncludes
} from '@helpdesk/core'
import { countInclude, listPage, viewOne, type ListMapping } from '../list/list-mapping.js'
import { personColumns, personFromRow, rowFromNewUser, rowFromUserPatch, userColumns, userFromRow, type UserRow } from '../rows/user-row.js'
import { withAuthRevisionBump } from './auth-revision.js'
import { insertId, insertMany, now, rowsByIds, type RepositoryContext } from './repository-context.js'
import { reindexTicketsOfOwner } from './ticket-search.js'

type Item = WithIncludes<User>

const ticketsTable = 'tickets'

const customerMapping: ListMapping<typeof customerList, UserRow, Item> = {
  spec: customerList,
  sorts: { id: 'users.id' },
  partial: { first_name: 'users.first_name', last_name: 'users.last_name', email: 'users.email', company: 'users.company' },
  exact: { status: { column: 'users.status', type: 'int' } },
  includes: {
    'tickets-count': countInclude(ticketsTable, 'user_id'),
    'notes-count': countInclude('customer_notes', 'customer_id')
  },
  idColumn: 'users.id',
  map: (row) => userFromRow(row) as Item
}

const agentMapping: ListMapping<typeof agentList, UserRow, Item> = {
  spec: agentList,
  sorts: { id: 'users.id' },
  partial: { first_name: 'users.first_name', last_name: 'users.last_name', email: 'users.email' },
  exact: { status: { column: 'users.status', type: 'int' } },
  includes: {
    'notes-count': countInclude('customer_notes', 'creator_id'),
    'assigned-categories-count': countInclude('agent_categories', 'user_id'),
    'unresolved-tickets-count': countInclude(ticketsTable, 'assigned_agent_id', (qb) => { void qb.whereNot('status', 3) }),
    'resolved-tickets-count': countInclude(ticketsTable, 'assigned_agent_id', (qb) => { void qb.where('status', 3) })
  },
  idColumn: 'users.id',
  map: (row) => userFromRow(row) as Item
}

/** Hot lookups (every ticket view of an agent needs its categories): prepared statements. */
const FIND_USER_BY_ID = `select ${userColumns.join(', ')} from users where users.id = ?`
const CATEGORY_IDS = 'select category_id from agent_categories where user_id = ? order by category_id'

function roles (kind: UserKind): number[] {
  return kind === 'customer' ? [Role.Customer] : [Role.Admin, Role.Agent]
}

export function createUserRepository (ctx: RepositoryContext): UserRepository {
  const { db } = ctx
  const users = (): Knex.QueryBuilder => db('users').select(userColumns)
  const mapping = (kind: UserKind): ListMapping<typeof customerList | typeof agentList, UserRow, Item> =>
    (kind === 'customer' ? customerMapping : agentMapping) as ListMapping<typeof customerList | typeof agentList, UserRow, Item>

  return {
    async findById (id) {
      const [row] = await ctx.dialect.run<UserRow>(db, FIND_USER_BY_ID, [id])
      return row === undefined ? null : userFromRow(row)
    },
    async findMany (ids) {
      if (ids.length === 0) return []
      const byId = new Map((await rowsByIds<UserRow>(db, 'users', userColumns, ids)).map((row) => [Number(row.id), row]))
      return ids.flatMap((id) => {
        const row = byId.get(id)
        return row === undefined ? [] : [userFromRow(row)]
      })
    },
    async findByEmail (email) {
      const row = await users().whereRaw('lower(users.email) = lower(?)', [email]).first() as UserRow | undefined
      return row === undefined ? null : userFromRow(row)
    },
    async findPasswordHash (id) {
      const row = await db('users').select('password_hash').where('id', id).first() as { password_hash: string | null } | undefined
      return row?.password_hash ?? null
    },
    async create (user: NewUser) {
      const id = await insertId(db('users').insert(rowFromNewUser(user, now(ctx))))
      const created = await this.findById(id)
      if (created === null) throw new Error('inserted user vanished')
      return created
    },
    async createMany (list) {
      const at = now(ctx)
      return await insertMany(db, 'users', list.map((user) => rowFromNewUser(user, at)), 500)
    },
    async update (id: number, patch: UserPatch) {
      const write = async (trx: Knex): Promise<boolean> => {
        const count = await trx('users').where('id', id).update(rowFromUserPatch(patch, now(ctx)))
        if (count === 0) return false
        // Ticket search documents hold the owner's names and email: rebuilt in the same transaction.
        await reindexTicketsOfOwner(trx, ctx.dialect, id, patch)
        return true
      }
      // A login only moves last_login_at: nothing a cached token lookup relies on.
      const loginOnly = Object.keys(patch).every((key) => key === 'last_login_at')
      const updated = loginOnly ? await write(db) : await withAuthRevisionBump(db, ctx.dialect, write)
      return updated ? await this.findById(id) : null
    },
    async delete (id) {
      return await withAuthRevisionBump(db, ctx.dialect, async (trx) => await trx('users').where('id', id).delete() > 0)
    },
    async list (kind: UserKind, query: ListQuery): Promise<Page<Item>> {
      return await listPage(db, ctx.dialect, users().whereIn('users.role', roles(kind)), mapping(kind), query)
    },
    async view (kind, id, query) {
      return await viewOne(db, users().whereIn('users.role', roles(kind)).where('users.id', id), mapping(kind), query)
    },
    async setNotificationSettings (id, settings: NotificationSettings) {
      await withAuthRevisionBump(db, ctx.dialect, async (trx) => await trx('users').where('id', id).update(rowFromUserPatch({ notifications: settings }, now(ctx))))
    },
    async categoryIds (agentId) {
      const rows = await ctx.dialect.run<{ category_id: number }>(db, CATEGORY_IDS, [agentId])
      return rows.map((r) => r.category_id)
    },
    async setCategories (agentId, categoryIds) {
      // An agent's categories are part of what authenticated callers may have remembered (their ticket scope).
      await withAuthRevisionBump(db, ctx.dialect, async (trx) => {
        await trx('agent_categories').where('user_id', agentId).delete()
        if (categoryIds.length > 0) {
          await trx('agent_categories').insert(categoryIds.map((cid) => ({ user_id: agentId, category_id: cid })))
        }
      })
    },
    async addAgentsToCategory (categoryId, agentIds) {
      if (agentIds.length === 0) return
      await withAuthRevisionBump(db, ctx.dialect, async (trx) => {
        await trx('agent_categories').insert(agentIds.map((id) => ({ user_id: id, category_id: categoryId })))
      })
    },
    async staffOfCategory (categoryId) {
      const rows = await db('users').select(personColumns)
        .whereIn('users.role', [Role.Admin, Role.Agent])
        .whereNot('users.status', UserStatus.Banned)
        .where((w) => {
          void w.where('users.role', Role.Admin)
            .orWhere('users.all_categories', true)
            .orWhere('users.permissions', 'like', '%"view_all_tickets":true%')
            .orWhereIn('users.id', db('agent_categories').select('user_id').where('category_id', categoryId))
        })
        .orderBy([{ column: 'users.first_name' }, { column: 'users.last_name' }, { column: 'users.id' }]) as UserRow[]
      return rows.map(personFromRow)
    },
    async notificationSettingsOf (ids) {
      if (ids.length === 0) return []
      // Every comment and ticket change asks this (its notifications' recipients): one prepared statement.
      const rows = await rowsByIds<UserRow>(db, 'users', userColumns, ids)
      return rows.map((row) => ({ id: row.id, notifications: userFromRow(row).notifications }))
    },
    async staffIds (filter) {
      const qb = db('users').distinct('users.id').whereIn('users.role', [Role.Admin, Role.Agent])
      void qb.where((w) => {
        if (filter.admins === true) void w.orWhere('users.role', Role.Admin)
        if (filter.categoryId !== undefined) {
          void w.orWhereIn('users.id', db('agent_categories').select('user_id').where('category_id', filter.categoryId))
          void w.orWhere('users.all_categories', true)
        }
        if (filter.permission !== undefined) {
          void w.orWhere('users.permissions', 'like', `%"${filter.permission}":true%`)
        }
        if (filter.admins !== true && filter.categoryId === undefined && filter.permission === undefined) void w.whereRaw('1 = 0')
      })
      const rows = await qb.orderBy('users.id') as Array<{ id: number }>
      return rows.map((r) => r.id)
    }
  }
}
