import { Type, type Static } from '@sinclair/typebox'
import { AUTOMATION_LIMITS, TIME_ANCHORS, type Automation as AutomationEntity } from '@helpdesk/core'
import { DateTime } from '../common.js'
import { RuleActionShape, RuleConditionsShape } from '../triggers/trigger-schemas.js'

export const TimeConditionShape = Type.Object({
  anchor: Type.Union(TIME_ANCHORS.map((anchor) => Type.Literal(anchor)), { description: 'created, updated, status_changed or assigned (due: not yet).' }),
  hours: Type.Number({ minimum: 0, description: 'At least this many hours since the anchor (whole minutes).' }),
  business: Type.Optional(Type.Boolean({ description: 'Count business hours (every hour counts while tickets carry no calendar).' }))
})

export const Automation = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  active: Type.Boolean(),
  time_condition: TimeConditionShape,
  conditions: RuleConditionsShape,
  actions: Type.Array(RuleActionShape),
  created_at: DateTime,
  updated_at: DateTime
}, { description: 'A rule the recurring `automations.run` job applies to tickets once their time condition holds, once per ticket until re-armed.' })

const writable = {
  name: Type.String({ minLength: 1, maxLength: AUTOMATION_LIMITS.name }),
  active: Type.Optional(Type.Boolean()),
  time_condition: TimeConditionShape,
  conditions: Type.Optional(RuleConditionsShape),
  actions: Type.Array(RuleActionShape, { minItems: 1, maxItems: 30 })
}

export const AutomationCreate = Type.Object(writable, {
  examples: [{
    name: 'Close pending after 7 days',
    time_condition: { anchor: 'status_changed', hours: 168 },
    conditions: { all: [{ field: 'status', operator: 'is', value: 2 }] },
    actions: [{ type: 'set_status', value: 3 }]
  }]
})
export const AutomationUpdate = Type.Partial(Type.Object(writable), { description: 'Absent keys keep their value.', examples: [{ active: false }] })

export function presentAutomation (automation: AutomationEntity): Static<typeof Automation> {
  return {
    id: automation.id,
    name: automation.name,
    active: automation.active,
    time_condition: automation.time_condition,
    conditions: automation.conditions as Static<typeof RuleConditionsShape>,
    actions: automation.actions as Array<Static<typeof RuleActionShape>>,
    created_at: automation.created_at,
    updated_at: automation.updated_at
  }
}
