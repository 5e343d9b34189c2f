import { t } from '../../messages/index.js'

/** One condition or action as the builder edits it: strings, turned into the rule language's JSON by `toCondition`/`toAction`. */
export interface ConditionRow { field: string, operator: string, value: string }
export interface ActionRow { type: string, value: string }

export const CONDITION_FIELDS: Record<string, string[]> = {
  status: ['is', 'is_not', 'in', 'not_in'],
  category_id: ['is', 'is_not', 'in', 'not_in'],
  assigned_agent_id: ['is', 'is_not', 'in', 'not_in'],
  priority: ['is', 'is_not', 'above', 'below', 'in', 'not_in'],
  tags: ['includes_any', 'includes_all', 'includes_none'],
  channel: ['is', 'is_not', 'in', 'not_in'],
  customer_email_domain: ['is', 'is_not', 'in', 'not_in'],
  subject: ['contains', 'not_contains', 'contains_word', 'is', 'is_not'],
  comment: ['contains', 'not_contains', 'contains_word', 'is', 'is_not'],
  private: ['is'],
  within_business_hours: ['is'],
  changed: ['is']
}

export const ACTION_TYPES = ['set_status', 'set_priority', 'set_category', 'add_tags', 'remove_tags', 'set_private', 'assign', 'assign_by', 'add_note', 'reply', 'notify', 'webhook'] as const

const LIST_OPERATORS = new Set(['in', 'not_in', 'includes_any', 'includes_all', 'includes_none'])
const ID_FIELDS = new Set(['status', 'category_id', 'assigned_agent_id'])

function scalar (field: string, text: string): unknown {
  const value = text.trim()
  if (field === 'private' || field === 'within_business_hours') return value === 'true'
  if (ID_FIELDS.has(field)) return value === '' || value === 'none' ? null : Number(value)
  return value
}

/** The builder's row as a condition of the rule language: lists are comma-separated. */
export function toCondition (row: ConditionRow): Record<string, unknown> {
  const value = LIST_OPERATORS.has(row.operator)
    ? row.value.split(',').map((part) => scalar(row.field, part)).filter((part) => part !== '' && part !== null)
    : scalar(row.field, row.value)
  return { field: row.field, operator: row.operator, value }
}

export function fromCondition (condition: { field: string, operator: string, value?: unknown }): ConditionRow {
  const value = Array.isArray(condition.value) ? condition.value.join(', ') : condition.value === null || condition.value === undefined ? '' : String(condition.value)
  return { field: condition.field, operator: condition.operator, value }
}

/** The builder's row as an action: tags comma-separated, texts as they are, ids as numbers. */
export function toAction (row: ActionRow): Record<string, unknown> {
  const text = row.value.trim()
  switch (row.type) {
    case 'set_status': case 'set_category': return { type: row.type, value: Number(text) }
    case 'assign': return { type: row.type, value: text === '' ? null : Number(text) }
    case 'set_private': return { type: row.type, value: text === 'true' }
    case 'add_tags': case 'remove_tags': return { type: row.type, value: text.split(',').map((tag) => tag.trim()).filter((tag) => tag !== '') }
    case 'assign_by': return { type: row.type, strategy: text === '' ? 'round_robin' : text }
    case 'add_note': case 'reply': return { type: row.type, body: row.value }
    case 'notify': return { type: row.type, to: 'category_agents', message: row.value }
    case 'webhook': return { type: row.type, webhook_id: Number(text) }
    default: return { type: row.type, value: text }
  }
}

export function fromAction (action: Record<string, unknown>): ActionRow {
  const value = action.body ?? action.message ?? action.strategy ?? action.webhook_id ?? action.value
  return { type: String(action.type), value: Array.isArray(value) ? value.join(', ') : value === null || value === undefined ? '' : String(value) }
}

/** Readable rows of conditions: field, operator and value, each labelled, added and removed one by one. */
export function ConditionRows ({ legend, rows, onRows }: { legend: string, rows: ConditionRow[], onRows: (rows: ConditionRow[]) => void }) {
  const set = (index: number, patch: Partial<ConditionRow>) => { onRows(rows.map((row, i) => i === index ? { ...row, ...patch } : row)) }
  return (
    <fieldset class="rule-rows">
      <legend>{legend}</legend>
      {rows.map((row, index) => (
        <div class="rule-row" key={index}>
          <label>{t('rules.field')}
            <select value={row.field} onChange={(e) => { const field = e.currentTarget.value; set(index, { field, operator: CONDITION_FIELDS[field]?.[0] ?? 'is' }) }}>
              {Object.keys(CONDITION_FIELDS).map((field) => <option key={field} value={field}>{field}</option>)}
            </select>
          </label>
          <label>{t('rules.operator')}
            <select value={row.operator} onChange={(e) => { set(index, { operator: e.currentTarget.value }) }}>
              {(CONDITION_FIELDS[row.field] ?? ['is']).map((op) => <option key={op} value={op}>{op}</option>)}
            </select>
          </label>
          <label>{t('rules.value')}
            <input value={row.value} onInput={(e) => { set(index, { value: e.currentTarget.value }) }} />
          </label>
          <button type="button" onClick={() => { onRows(rows.filter((_, i) => i !== index)) }}>{t('rules.remove')}</button>
        </div>
      ))}
      <button type="button" onClick={() => { onRows([...rows, { field: 'subject', operator: 'contains_word', value: '' }]) }}>{t('rules.addCondition')}</button>
    </fieldset>
  )
}

/** Readable rows of actions, in order. */
export function ActionRows ({ rows, onRows }: { rows: ActionRow[], onRows: (rows: ActionRow[]) => void }) {
  const set = (index: number, patch: Partial<ActionRow>) => { onRows(rows.map((row, i) => i === index ? { ...row, ...patch } : row)) }
  return (
    <fieldset class="rule-rows">
      <legend>{t('rules.actions')}</legend>
      {rows.map((row, index) => (
        <div class="rule-row" key={index}>
          <label>{t('rules.action')}
            <select value={row.type} onChange={(e) => { set(index, { type: e.currentTarget.value }) }}>
              {ACTION_TYPES.map((type) => <option key={type} value={type}>{type}</option>)}
            </select>
          </label>
          <label>{t('rules.value')}
            <input value={row.value} onInput={(e) => { set(index, { value: e.currentTarget.value }) }} />
          </label>
          <button type="button" onClick={() => { onRows(rows.filter((_, i) => i !== index)) }}>{t('rules.remove')}</button>
        </div>
      ))}
      <button type="button" onClick={() => { onRows([...rows, { type: 'add_tags', value: '' }]) }}>{t('rules.addAction')}</button>
    </fieldset>
  )
}
