import { ruleActions, type RuleAction } from '../automation/rule-actions.js'
import { ruleConditions, TRIGGER_EVENTS, type RuleConditions, type TriggerEvent } from '../automation/rule-conditions.js'
import { collectFieldErrors, ValidationError, type FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import { requiredPlainText } from '../text-input.js'
import type { TriggerValues } from './trigger-store.js'
import { TRIGGER_LIMITS, type TriggerPatch } from './trigger.js'

/** The events a trigger reacts to: a non-empty list of `TRIGGER_EVENTS`, without repeats. */
export function triggerEvents (input: unknown, key = 'events'): TriggerEvent[] {
  if (!Array.isArray(input) || input.length === 0) throw ValidationError.field(key, `Give at least one event: ${TRIGGER_EVENTS.join(', ')}.`)
  const errors: FieldErrors = {}
  input.forEach((event, index) => {
    if (!(TRIGGER_EVENTS as readonly unknown[]).includes(event)) errors[`${key}.${index}`] = [`The event must be one of ${TRIGGER_EVENTS.join(', ')}.`]
  })
  throwIfInvalid(errors)
  return [...new Set(input as TriggerEvent[])]
}

/** A trigger's values after a create or update, every part validated by the rule language (422 keyed `conditions.all.2.value`). */
export function triggerValues (current: TriggerValues, patch: TriggerPatch): TriggerValues {
  const errors: FieldErrors = {}
  const name = patch.name !== undefined ? requiredPlainText(errors, 'name', patch.name, TRIGGER_LIMITS.name) : current.name
  const events = patch.events !== undefined ? collectFieldErrors(errors, () => triggerEvents(patch.events)) : current.events
  const conditions: RuleConditions | undefined = patch.conditions !== undefined ? collectFieldErrors(errors, () => ruleConditions(patch.conditions)) : current.conditions
  const actions: RuleAction[] | undefined = patch.actions !== undefined ? collectFieldErrors(errors, () => ruleActions(patch.actions)) : current.actions
  if (patch.position !== undefined && (!Number.isInteger(patch.position) || patch.position < 0 || patch.position > 1_000_000)) errors.position = ['The position must be a whole number from 0.']
  if (patch.active !== undefined && typeof patch.active !== 'boolean') errors.active = ['active must be true or false.']
  throwIfInvalid(errors)
  return {
    name,
    position: patch.position ?? current.position,
    active: patch.active ?? current.active,
    events: events ?? current.events,
    conditions: conditions ?? current.conditions,
    actions: actions ?? current.actions
  }
}
