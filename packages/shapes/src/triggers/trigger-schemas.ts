import { Type, type Static } from '@sinclair/typebox'
import { TRIGGER_EVENTS, TRIGGER_LIMITS, type Trigger as TriggerEntity } from '@helpdesk/core'
import { DateTime } from '../common.js'

export const RuleConditionShape = Type.Object({
  field: Type.String({ description: 'status, category_id, assigned_agent_id, priority, tags, field:<id>, channel, customer_email_domain, subject, comment, private, within_business_hours, changed, changed:<field>.' }),
  operator: Type.String({ description: 'is, is_not, in, not_in, above, below, includes_any, includes_all, includes_none, contains, not_contains, contains_word, present, blank, to, from (by field: docs/automation.md).' }),
  value: Type.Optional(Type.Unknown())
}, { description: 'One condition of the rule language (validated when saved: 422 keyed `conditions.all.N.operator`).' })

export const RuleConditionsShape = Type.Object({
  all: Type.Optional(Type.Array(RuleConditionShape, { maxItems: 50 })),
  any: Type.Optional(Type.Array(RuleConditionShape, { maxItems: 50 }))
}, { description: 'Every condition of `all` holds and, when `any` is not empty, one of `any`.' })

export const RuleActionShape = Type.Object({
  type: Type.String({ description: 'set_status, set_priority, set_category, set_field, add_tags, remove_tags, set_private, assign, assign_by, add_note, reply, notify, webhook.' }),
  value: Type.Optional(Type.Unknown()),
  field_id: Type.Optional(Type.Integer()),
  strategy: Type.Optional(Type.String({ description: 'assign_by: round_robin or least_open.' })),
  body: Type.Optional(Type.String({ description: 'add_note, reply: HTML with canned-response placeholders.' })),
  to: Type.Optional(Type.Unknown({ description: 'notify: assignee, category_agents or a list of user ids.' })),
  message: Type.Optional(Type.String({ description: 'notify: the text.' })),
  webhook_id: Type.Optional(Type.Integer({ description: 'webhook: the endpoint to call.' }))
}, { description: 'One action, in order (docs/automation.md).' })

const TriggerEventShape = Type.Union(TRIGGER_EVENTS.map((event) => Type.Literal(event)))

export const Trigger = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  position: Type.Integer({ description: 'Active triggers run in this order (then by id).' }),
  active: Type.Boolean(),
  events: Type.Array(TriggerEventShape),
  conditions: RuleConditionsShape,
  actions: Type.Array(RuleActionShape),
  created_at: DateTime,
  updated_at: DateTime
}, { description: 'A rule run in the transaction of a ticket change.' })

const writable = {
  name: Type.String({ minLength: 1, maxLength: TRIGGER_LIMITS.name }),
  active: Type.Optional(Type.Boolean({ description: 'Default true.' })),
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000000, description: 'Default: after the last one.' })),
  events: Type.Array(TriggerEventShape, { minItems: 1 }),
  conditions: Type.Optional(RuleConditionsShape),
  actions: Type.Array(RuleActionShape, { minItems: 1, maxItems: 30 })
}

export const TriggerCreate = Type.Object(writable, {
  examples: [{
    name: 'Refunds to billing',
    events: ['ticket.created'],
    conditions: { all: [{ field: 'subject', operator: 'contains_word', value: 'refund' }] },
    actions: [{ type: 'add_tags', value: ['refund'] }, { type: 'notify', to: 'category_agents', message: 'A refund request came in.' }]
  }]
})
export const TriggerUpdate = Type.Partial(Type.Object(writable), { description: 'Absent keys keep their value.', examples: [{ active: false }] })

export const TriggerOrder = Type.Object({
  ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: TRIGGER_LIMITS.count, description: 'Trigger ids in their new order; unlisted ones follow in their order.' })
}, { examples: [{ ids: [3, 1, 2] }] })

export function presentTrigger (trigger: TriggerEntity): Static<typeof Trigger> {
  return {
    id: trigger.id,
    name: trigger.name,
    position: trigger.position,
    active: trigger.active,
    events: trigger.events,
    conditions: trigger.conditions as Static<typeof RuleConditionsShape>,
    actions: trigger.actions as Array<Static<typeof RuleActionShape>>,
    created_at: trigger.created_at,
    updated_at: trigger.updated_at
  }
}

export const TriggerDryRunInput = Type.Object({
  conditions: Type.Optional(RuleConditionsShape),
  actions: Type.Optional(Type.Array(RuleActionShape, { maxItems: 30 }))
}, { examples: [{ conditions: { all: [{ field: 'subject', operator: 'contains_word', value: 'refund' }] }, actions: [{ type: 'add_tags', value: ['refund'] }] }] })

export const TriggerDryRunResult = Type.Object({
  evaluated: Type.Integer({ description: 'How many of the latest tickets were evaluated (at most 50).' }),
  matches: Type.Array(Type.Object({
    ticket_id: Type.Integer(),
    title: Type.String(),
    changes: Type.Array(Type.Object({ field: Type.String(), from: Type.Unknown(), to: Type.Unknown() }), { description: 'What the field actions would change (effects are not listed).' })
  }))
})
