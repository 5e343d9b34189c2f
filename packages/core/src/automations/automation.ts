import type { RuleAction } from '../automation/rule-actions.js'
import type { Priority, RuleConditions } from '../automation/rule-conditions.js'
import type { TicketInstants, TimeCondition } from '../automation/time-rules.js'
import { defineList } from '../list/list-spec.js'
import type { Ticket } from '../tickets/ticket.js'
import type { DateTimeString } from '../time.js'

/**
 * A time-based automation (issue 32): run by a recurring job, it acts on
 * tickets whose time condition holds ("pending for 7 days") and whose other
 * conditions hold, once per ticket until its condition re-arms.
 */
export interface Automation {
  id: number
  name: string
  active: boolean
  time_condition: TimeCondition
  conditions: RuleConditions
  actions: RuleAction[]
  created_at: DateTimeString
  updated_at: DateTimeString
}

export interface AutomationInput {
  name: string
  active?: boolean | undefined
  time_condition: unknown
  conditions?: unknown
  actions: unknown
}

export type AutomationPatch = Partial<AutomationInput>

export type AutomationValues = Pick<Automation, 'name' | 'active' | 'time_condition' | 'conditions' | 'actions'>

export const AUTOMATION_LIMITS = { name: 250, count: 200, perRun: 500 } as const

/** How often the job runs: the most an automation fires late (FreeScout #3246 fired 40 minutes late). */
export const AUTOMATION_INTERVAL_MS = 5 * 60_000

export const automationList = defineList({
  resource: 'automations',
  includes: [],
  sorts: ['name', 'created_at', 'id'],
  defaultSort: 'name',
  keyTypes: { name: 'string', created_at: 'datetime', id: 'int' },
  partialFilters: ['name'],
  exactFilters: ['active']
})

/** A ticket an automation may fire on: due by its anchor, not marked for this anchor yet. */
export interface AutomationCandidate {
  ticket: Ticket
  instants: TicketInstants
  /** The anchor instant the automation last fired on for this ticket (null: never). */
  mark: string | null
}

/** What the conditions require of the columns the due query can filter on (`all` conditions `is`/`in`; null: any). */
export interface AutomationDueFilter {
  statuses: number[] | null
  priorities: Priority[] | null
  /** The tag conditions of `all` (names lowercased), as `EXISTS` on the ticket's tags. */
  tags?: Array<{ operator: 'includes_any' | 'includes_all' | 'includes_none', value: string[] }>
  /** The other column conditions of `all` (status, category, assignee, priority, private), exactly as the rule language reads them. */
  columns?: AutomationDueColumn[]
  /**
   * The subject, custom-field and email-domain conditions of `all`, each as
   * a test the due query can make: a superset of the tickets its condition
   * holds for (the run judges every ticket it returns).
   */
  texts?: AutomationDueText[]
  /**
   * The tests of the `any` conditions, when each of them has one (null:
   * some have none, so `any` cannot narrow): one of them must hold.
   */
  any?: Array<AutomationDueColumn | AutomationDueText> | null
}

/** A column condition as the due query checks it (`null` is "no value": `is_not`/`not_in` keep it, as the rule language does). */
export type AutomationDueColumn =
  | { column: 'status' | 'category_id' | 'assigned_agent_id', operator: 'is' | 'is_not', value: number | null }
  | { column: 'status' | 'category_id' | 'assigned_agent_id', operator: 'in' | 'not_in', value: number[] }
  | { column: 'priority', operator: 'is' | 'is_not' | 'above' | 'below', value: Priority }
  | { column: 'priority', operator: 'in' | 'not_in', value: Priority[] }
  | { column: 'private', operator: 'is', value: boolean }

/**
 * A text test of the due query, on the text case-folded as `caseFolded`
 * does (ASCII letters lowercased, and the two characters whose lowercase
 * holds ASCII letters, `İ` and the Kelvin sign, as JavaScript lowercases
 * them): the values are lowercase.
 *
 * - `contains`: the text contains every one of the values;
 * - `not_contains`: it contains none of them;
 * - `present`: it is not empty;
 * - `domain`: an address whose domain is one of the values or under one
 *   (`x@a.example.com` is under `example.com`); `not_domain`: none of them.
 *
 * `of`: the subject; `field:<id>` a custom-field answer ('' without one);
 * `email` the owner's address ('' without one).
 */
export interface AutomationDueText {
  of: 'subject' | 'email' | `field:${string}`
  test: 'contains' | 'not_contains' | 'present' | 'domain' | 'not_domain'
  values: string[]
}

/** Where a page of the due query ends: its last ticket's anchor instant (as read) and id. */
export interface AutomationDueCursor {
  anchor_at: string
  id: number
}
