import { Type, type Static } from '@sinclair/typebox'
import { MACRO_ACTION_TYPES, MACRO_LIMITS, type Macro as MacroEntity } from '@helpdesk/core'
import { DateTime, Nullable } from '../common.js'

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 })

export const MacroAction = Type.Object({
  type: Type.Union(MACRO_ACTION_TYPES.map((type) => Type.Literal(type))),
  value: Type.Optional(Type.Unknown({
    description: 'set_status: 1-3; set_priority: low, normal, high, urgent; set_category: an id; set_field: text; add_tags/remove_tags: tag names; ' +
      'set_private: true/false; assign: an agent id or null.'
  })),
  field_id: Type.Optional(Type.Integer({ description: 'set_field: the custom field.' })),
  body: Type.Optional(Type.String({ description: 'add_note, reply: HTML with canned-response placeholders (`{{ customer.first_name }}`...).' }))
}, { description: 'One action, validated as the rules of triggers and automations are (docs/automation.md).' })

export const Macro = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  shared: Type.Boolean({ description: 'True: visible to all staff, managed by administrators. False: its owner\'s alone.' }),
  user_id: Nullable(Type.Integer({ description: 'The creator (a personal macro\'s owner).' })),
  actions: Type.Array(MacroAction),
  created_at: DateTime,
  updated_at: DateTime
}, { description: 'A named set of ticket actions applied in one call.' })

const writable = {
  name: Type.String({ minLength: 1, maxLength: MACRO_LIMITS.name }),
  shared: Type.Optional(Type.Boolean({ description: 'Default false; true needs an administrator.' })),
  actions: Type.Array(MacroAction, { minItems: 1, maxItems: 30 })
}

export const MacroCreate = Type.Object(writable, {
  examples: [{
    name: 'Refund approved',
    shared: true,
    actions: [
      { type: 'reply', body: '<p>Hello {{ customer.first_name }}, your refund is on its way.</p>' },
      { type: 'add_tags', value: ['refund'] },
      { type: 'set_status', value: 2 }
    ]
  }]
})
export const MacroUpdate = Type.Partial(Type.Object(writable), { description: 'Absent keys keep their value.', examples: [{ name: 'Refund sent' }] })

export const ApplyMacroParams = Type.Object({ id: Id, macro_id: Id })

export function presentMacro (macro: MacroEntity): Static<typeof Macro> {
  return {
    id: macro.id,
    name: macro.name,
    shared: macro.shared,
    user_id: macro.user_id,
    actions: macro.actions as Array<Static<typeof MacroAction>>,
    created_at: macro.created_at,
    updated_at: macro.updated_at
  }
}
