import { ruleActions, type RuleAction } from '../automation/rule-actions.js'
import { ValidationError, type FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import { requiredPlainText } from '../text-input.js'
import { MACRO_ACTION_TYPES, MACRO_LIMITS, type Macro, type MacroPatch } from './macro.js'

export type MacroValues = Pick<Macro, 'name' | 'shared' | 'actions'>

/** A macro's values after a create or update: name required, actions validated by `ruleActions` and limited to `MACRO_ACTION_TYPES`. */
export function macroValues (current: MacroValues, patch: MacroPatch): MacroValues {
  const errors: FieldErrors = {}
  const name = patch.name !== undefined ? requiredPlainText(errors, 'name', patch.name, MACRO_LIMITS.name) : current.name
  let actions: RuleAction[] = current.actions
  if (patch.actions !== undefined) {
    try {
      actions = ruleActions(patch.actions)
      actions.forEach((action, index) => {
        if (!(MACRO_ACTION_TYPES as readonly string[]).includes(action.type)) {
          errors[`actions.${index}.type`] = [`A macro cannot ${action.type}: its actions are ${MACRO_ACTION_TYPES.join(', ')}.`]
        }
      })
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      Object.assign(errors, error.errors)
    }
  }
  throwIfInvalid(errors)
  return { name, shared: patch.shared ?? current.shared, actions }
}
