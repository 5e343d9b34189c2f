import type { RuleCondition, RuleConditions } from '../automation/rule-conditions.js'
import type { AutomationDueColumn, AutomationDueText } from './automation.js'

/**
 * The characters outside ASCII whose JavaScript lowercase holds an ASCII
 * letter, with that lowercase: what `caseFolded` in the store replaces before
 * lowercasing ASCII, so that the folded text has the same ASCII runs as
 * `text.toLowerCase()` (a test checks the list against every code point).
 */
export const FOLDS_TO_ASCII: ReadonlyArray<readonly [string, string]> = [['\u0130', 'i\u0307'], ['\u212A', 'k']]

/**
 * The runs of ASCII characters in `text` lowercased: where the lowercased
 * text is in a ticket's lowercased text, each of them is in it too, and in
 * the ticket's text case-folded by the store (which leaves the rest of the
 * characters as they are).
 */
export function asciiRuns (text: string): string[] {
  return text.toLowerCase().split(/[^\u0000-\u007f]+/u).filter((run) => run !== '')
}

const isAscii = (text: string): boolean => asciiRuns(text).join('') === text.toLowerCase()

/** A text condition (subject or custom field, in `all`) as a test of the due query, or null where none is cheap and safe. */
function textTest (of: AutomationDueText['of'], operator: string, value: string | null): AutomationDueText | null {
  const word = (value ?? '').toLowerCase()
  switch (operator) {
    // Each holds only where the text contains the (trimmed) value.
    case 'contains': case 'contains_word': case 'is': {
      const runs = asciiRuns(operator === 'is' ? word.trim() : word)
      return runs.length === 0 ? null : { of, test: 'contains', values: runs }
    }
    // Exact where the value is ASCII (its lowercase is the same in SQL); else SQL cannot tell.
    case 'not_contains': return isAscii(word) ? { of, test: 'not_contains', values: [word] } : null
    // `present` is a non-blank answer: not empty (whitespace-only ones are judged in process).
    case 'present': return { of, test: 'present', values: [] }
    default: return null
  }
}

function dueTest (condition: RuleCondition): AutomationDueColumn | AutomationDueText | null {
  switch (condition.field) {
    case 'status': case 'category_id': case 'assigned_agent_id': case 'priority': case 'private':
      return { column: condition.field, operator: condition.operator, value: condition.value } as AutomationDueColumn
    case 'subject': return textTest('subject', condition.operator, condition.value)
    case 'customer_email_domain': {
      const values = Array.isArray(condition.value) ? condition.value : [condition.value as string]
      return { of: 'email', test: condition.operator === 'is' || condition.operator === 'in' ? 'domain' : 'not_domain', values }
    }
    default: {
      const field = /^field:(\d+)$/.exec(condition.field)
      if (field === null) return null
      return textTest(`field:${field[1] as string}`, condition.operator, (condition as { value: string | null }).value)
    }
  }
}

/**
 * The conditions of `all` the due query can check, as it checks them: the
 * columns exactly, the texts as supersets. The run judges every ticket the
 * query returns on all the conditions, so a test here only spares it reading
 * tickets the conditions leave out. `any` narrows (one of its tests) only
 * when every one of its conditions has a test.
 */
export function dueTestsOf (conditions: RuleConditions): { columns: AutomationDueColumn[], texts: AutomationDueText[], any: Array<AutomationDueColumn | AutomationDueText> | null } {
  const columns: AutomationDueColumn[] = []
  const texts: AutomationDueText[] = []
  // The first `status`/`priority` `is`/`in` is the due filter's `statuses`/`priorities` already (`requiredStatuses`, `requiredPriorities`).
  const taken = new Set<string>()
  for (const condition of conditions.all) {
    if ((condition.field === 'status' || condition.field === 'priority') && (condition.operator === 'is' || condition.operator === 'in') && !taken.has(condition.field)) {
      if (condition.field === 'priority' || Array.isArray(condition.value) || typeof condition.value === 'number') { taken.add(condition.field); continue }
    }
    const test = dueTest(condition)
    if (test === null) continue
    if ('column' in test) columns.push(test)
    else texts.push(test)
  }
  const any = conditions.any.map(dueTest)
  return { columns, texts, any: any.length > 0 && any.every((test) => test !== null) ? any as Array<AutomationDueColumn | AutomationDueText> : null }
}
