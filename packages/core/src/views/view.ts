import { defineList } from '../list/list-spec.js'
import type { DateTimeString } from '../time.js'

/**
 * A view of the ticket list (issue 35): a name for a filter and a sort of
 * `GET /tickets`. Built-in views (`key` set: mine, unassigned, open, pending,
 * closed) belong to everyone on the staff; saved ones are an agent's own
 * (private) or shared with the team (visible to all staff, managed by their
 * owner and administrators).
 */
export interface SavedView {
  id: number
  /** A built-in view's stable name (`mine`...); null for a saved view. */
  key: BuiltInViewKey | null
  name: string
  /** Visible to all staff; built-in views are shared. */
  shared: boolean
  /** The agent who saved it (null for built-in views, and once that user is deleted). */
  user_id: number | null
  /** `filter[...]` of `GET /tickets` by name (`status`, `agents`, `search`...), checked by the ticket list's rules. */
  filters: Record<string, string>
  /** `sort` of `GET /tickets` (`-updated_at`). */
  sort: string
  /** Built-in views first (1-5), saved ones after (100). */
  position: number
  created_at: DateTimeString
  updated_at: DateTimeString
}

export const BUILT_IN_VIEW_KEYS = ['mine', 'unassigned', 'open', 'pending', 'closed'] as const
export type BuiltInViewKey = typeof BUILT_IN_VIEW_KEYS[number]

/** A saved view's position: after the built-in ones. */
export const SAVED_VIEW_POSITION = 100

/** How far back "recently closed" reaches. */
export const RECENTLY_CLOSED_DAYS = 7

export interface ViewInput {
  name: string
  shared?: boolean | undefined
  filters?: Record<string, string> | undefined
  sort?: string | undefined
}

export type ViewPatch = Partial<ViewInput>

export const VIEW_LIMITS = { name: 100, filters: 20, filterValue: 500, savedPerOwner: 100 } as const

export const DEFAULT_VIEW_SORT = '-updated_at'

export const viewList = defineList({
  resource: 'views',
  /** `count`: the number of tickets the view shows the caller (in the caller's ticket scope; the whole page's counts are one statement, see `tickets.countMany`). */
  includes: ['count'],
  sorts: ['position', 'name', 'created_at', 'id'],
  /** Built-in views in their order, then saved ones by name. */
  defaultSort: 'position,name',
  keyTypes: { position: 'int', name: 'string', created_at: 'datetime', id: 'int' },
  partialFilters: ['name'],
  /** `shared`: 1 for built-in and shared views, 0 for the caller's private ones. */
  exactFilters: ['shared']
})
