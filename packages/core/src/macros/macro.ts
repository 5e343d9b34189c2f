import type { RuleAction } from '../automation/rule-actions.js'
import { defineList } from '../list/list-spec.js'
import type { DateTimeString } from '../time.js'

/**
 * A macro (issue 32): a named set of actions staff apply to one ticket in
 * one click or API call, atomically. Shared macros are visible to all staff
 * and managed by administrators; personal ones belong to their owner alone.
 */
export interface Macro {
  id: number
  name: string
  /** Visible to all staff (administrators manage it); otherwise its owner's alone. */
  shared: boolean
  /** The creator; a personal macro's owner (null once that user is deleted). */
  user_id: number | null
  /** Validated by `ruleActions`, in the order they apply. */
  actions: RuleAction[]
  created_at: DateTimeString
  updated_at: DateTimeString
}

export interface MacroInput {
  name: string
  shared?: boolean | undefined
  actions: unknown
}

export type MacroPatch = Partial<MacroInput>

export const MACRO_LIMITS = { name: 250 } as const

/**
 * The actions a macro may hold: every field action and a note or a reply
 * (with canned-response placeholders). Assignment strategies, notifications
 * and webhook calls belong to triggers and automations.
 */
export const MACRO_ACTION_TYPES = [
  'set_status', 'set_priority', 'set_category', 'set_field', 'add_tags', 'remove_tags', 'set_private', 'assign', 'add_note', 'reply'
] as const

export const macroList = defineList({
  resource: 'macros',
  includes: [],
  sorts: ['name', 'created_at', 'id'],
  defaultSort: 'name',
  keyTypes: { name: 'string', created_at: 'datetime', id: 'int' },
  partialFilters: ['name'],
  /** `shared`: 1 for shared macros, 0 for the caller's personal ones. */
  exactFilters: ['shared']
})
