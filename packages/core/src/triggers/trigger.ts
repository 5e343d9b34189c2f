import type { RuleAction } from '../automation/rule-actions.js'
import type { RuleConditions, TriggerEvent } from '../automation/rule-conditions.js'
import { defineList } from '../list/list-spec.js'
import type { DateTimeString } from '../time.js'

/**
 * A trigger (issue 32): on a ticket change (its `events`), when its
 * conditions hold, it runs its actions, in the change's transaction. Active
 * triggers run in `position` order (then by id); see docs/automation.md.
 */
export interface Trigger {
  id: number
  name: string
  position: number
  active: boolean
  events: TriggerEvent[]
  conditions: RuleConditions
  actions: RuleAction[]
  created_at: DateTimeString
  updated_at: DateTimeString
}

export interface TriggerInput {
  name: string
  active?: boolean | undefined
  position?: number | undefined
  events: unknown
  conditions?: unknown
  actions: unknown
}

export type TriggerPatch = Partial<TriggerInput>

export const TRIGGER_LIMITS = { name: 250, count: 500 } as const

export const triggerList = defineList({
  resource: 'triggers',
  includes: [],
  sorts: ['position', 'name', 'created_at', 'id'],
  defaultSort: 'position',
  keyTypes: { position: 'int', name: 'string', created_at: 'datetime', id: 'int' },
  partialFilters: ['name'],
  /** `active`: 1 for active triggers, 0 for inactive ones. */
  exactFilters: ['active']
})
