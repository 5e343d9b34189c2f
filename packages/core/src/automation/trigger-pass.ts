import { conditionsHold, type RuleConditions, type RuleFacts, type RuleTicket, type TriggerEvent } from './rule-conditions.js'
import { applyRuleActions, ruleTicketChanges, type EffectAction, type RuleAction, type RuleChange } from './rule-actions.js'

/** A trigger as the pass sees it: active ones only, in their order. */
export interface TriggerRule {
  id: number
  name: string
  /** The events it reacts to. */
  events: TriggerEvent[]
  conditions: RuleConditions
  actions: RuleAction[]
}

/** How many rounds a pass may run: the change, then changes made by triggers reacting to triggers. */
export const MAX_TRIGGER_DEPTH = 3

export interface FiredTrigger {
  trigger: TriggerRule
  /** 0: fired on the change itself; 1 and more: on changes made by triggers of the round before. */
  depth: number
  changes: RuleChange[]
  effects: EffectAction[]
}

export interface TriggerPassResult {
  /** The ticket after every fired trigger's field actions. */
  ticket: RuleTicket
  fired: FiredTrigger[]
  /** Effects left out, and why (a reply to auto-submitted mail). */
  suppressed: Array<{ trigger: TriggerRule, effect: EffectAction, reason: string }>
  /** True when triggers were still changing the ticket at the last allowed round (a chain the depth limit cut). */
  cut: boolean
}

/**
 * One trigger pass over one change of one ticket, with no I/O: the service
 * loads the active triggers, builds the facts, calls this inside the change's
 * transaction, writes `ticket`, records each fired trigger's changes in
 * history under its name and carries out the effects.
 *
 * The rules that keep triggers from looping or misfiring:
 * - within a round, triggers run in order and each sees the changes of those
 *   before it;
 * - a trigger fires at most once per pass (per ticket per change), so a
 *   trigger never re-fires on its own change, and two triggers undoing each
 *   other stop after one turn each;
 * - the changes a round made are a new change (`ticket.updated` through the
 *   `automation` door) for the triggers that have not fired yet, up to
 *   `maxDepth` rounds; what remains after that is cut, and said;
 * - effects of triggers (a note, a mail) are never a new change for triggers:
 *   a pass is the only way triggers react to triggers;
 * - a reply to a change that came from auto-submitted mail (RFC 3834) is
 *   suppressed.
 */
export function runTriggerPass (triggers: TriggerRule[], facts: RuleFacts & { auto_submitted?: boolean }, maxDepth = MAX_TRIGGER_DEPTH): TriggerPassResult {
  const done = new Set<number>()
  const fired: FiredTrigger[] = []
  const suppressed: TriggerPassResult['suppressed'] = []
  let round: RuleFacts = facts
  let state = facts.ticket
  let cut = false
  for (let depth = 0; depth < maxDepth; depth++) {
    const start = state
    let any = false
    for (const trigger of triggers) {
      if (done.has(trigger.id) || !trigger.events.includes(round.event)) continue
      if (!conditionsHold(trigger.conditions, { ...round, ticket: state })) continue
      done.add(trigger.id)
      any = true
      const applied = applyRuleActions(state, trigger.actions)
      const effects = applied.effects.filter((effect) => {
        if (effect.type === 'reply' && facts.auto_submitted === true) {
          suppressed.push({ trigger, effect, reason: 'the change came from auto-submitted mail (RFC 3834): never answered automatically' })
          return false
        }
        return true
      })
      fired.push({ trigger, depth, changes: applied.changes, effects })
      state = applied.ticket
    }
    if (!any || ruleTicketChanges(start, state).length === 0) break
    if (depth === maxDepth - 1) {
      cut = triggers.some((trigger) => !done.has(trigger.id) && trigger.events.includes('ticket.updated') &&
        conditionsHold(trigger.conditions, { ...round, event: 'ticket.updated', channel: 'automation', previous: start, ticket: state, comment_text: null }))
      break
    }
    round = { ...round, event: 'ticket.updated', channel: 'automation', previous: start, ticket: state, comment_text: null }
  }
  return { ticket: state, fired, suppressed, cut }
}
