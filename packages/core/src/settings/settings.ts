import type { DateTimeString } from '../time.js'
import { ForbiddenError, ValidationError } from '../errors.js'
import { SATISFACTION_LIMITS } from '../satisfaction/satisfaction.js'
import { Role, UserStatus, userType, type User, type UserType } from '../users/user.js'

/**
 * Administrator settings: what an administrator changes at run time, kept in
 * the database (`settings`, key -> JSON) so every instance reads the same.
 * Instance configuration (ports, URLs, lifetimes of tokens) stays in the
 * plugin options / configuration file. Each setting is declared once here:
 * its default and its check.
 */
export interface Settings {
  /**
   * Email verification of self-registered customers: `off` (registration creates an Active
   * customer, as before), `optional` (an Unconfirmed customer who is sent a verification mail
   * and may use the portal meanwhile), `required` (the same, but no ticket before the address
   * is verified).
   */
  'auth.email_verification': 'off' | 'optional' | 'required'
  /** Roles whose people must use two-factor authentication: they enrol at their next sign-in before getting a session. */
  'auth.two_factor_required': UserType[]
  /** Staff (administrators and agents) sign in only through single sign-on: password sign-in is refused for them. */
  'auth.sso_only_staff': boolean
  /** Customers are asked to rate a closed ticket (good / bad, with a comment): in the closing mail and in the portal. */
  'satisfaction.enabled': boolean
  /** The survey's question, as customers read it. */
  'satisfaction.question': string
  /** The words of the good choice. */
  'satisfaction.good_label': string
  /** The words of the bad choice. */
  'satisfaction.bad_label': string
  /** A bad rating notifies the ticket's assignee (else the agents of its category). */
  'satisfaction.notify_on_bad': boolean
  /** Days a rating link in a closing mail works (1-365). */
  'satisfaction.link_days': number
  /** Days the audit log keeps its entries (1-3650); a daily job removes older ones. */
  'audit.retention_days': number
  /** Statuses besides Pending (which always pauses) in which SLA clocks stand still (docs/sla.md). */
  'sla.paused_statuses': number[]
  /** Reports (`GET /reports/...`) for administrators only; otherwise agents see those of their categories too. */
  'reports.admins_only': boolean
  /** Hours within which a merge can be undone (`POST /tickets/{id}/unmerge`); 0 makes merges final (0-720). */
  'tickets.merge_undo_hours': number
}

export type SettingKey = keyof Settings

interface SettingSpec<K extends SettingKey> {
  default: Settings[K]
  /** The value (normalised) when acceptable, else a sentence saying what is. */
  check: (value: unknown) => { value: Settings[K] } | { error: string }
}

const USER_TYPES: readonly UserType[] = ['admin', 'agent', 'customer']

function boolean (value: unknown): { value: boolean } | { error: string } {
  return typeof value === 'boolean' ? { value } : { error: 'Must be true or false.' }
}

/** A required line of text of at most `max` characters (trimmed). */
function wording (max: number): (value: unknown) => { value: string } | { error: string } {
  return (value) => {
    const text = typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : ''
    return text !== '' && [...text].length <= max ? { value: text } : { error: `Must be a text of 1 to ${max} characters.` }
  }
}

const specs: { [K in SettingKey]: SettingSpec<K> } = {
  'auth.email_verification': {
    default: 'off',
    check: (value) => value === 'off' || value === 'optional' || value === 'required' ? { value } : { error: 'Must be "off", "optional" or "required".' }
  },
  'auth.two_factor_required': {
    default: [],
    check: (value) => Array.isArray(value) && value.every((v) => USER_TYPES.includes(v as UserType))
      ? { value: [...new Set(value as UserType[])].sort((a, b) => USER_TYPES.indexOf(a) - USER_TYPES.indexOf(b)) }
      : { error: 'Must be a list of roles: "admin", "agent", "customer".' }
  },
  'auth.sso_only_staff': {
    default: false,
    check: (value) => typeof value === 'boolean' ? { value } : { error: 'Must be true or false.' }
  },
  'satisfaction.enabled': { default: true, check: boolean },
  'satisfaction.question': { default: 'How would you rate the support you received?', check: wording(SATISFACTION_LIMITS.question) },
  'satisfaction.good_label': { default: 'Good, I\'m satisfied', check: wording(SATISFACTION_LIMITS.label) },
  'satisfaction.bad_label': { default: 'Bad, I\'m unsatisfied', check: wording(SATISFACTION_LIMITS.label) },
  'satisfaction.notify_on_bad': { default: true, check: boolean },
  'audit.retention_days': {
    default: 365,
    check: (value) => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 3650 ? { value: value as number } : { error: 'Must be a whole number of days from 1 to 3650.' }
  },
  'satisfaction.link_days': {
    default: 30,
    check: (value) => {
      const { min, max } = SATISFACTION_LIMITS.linkDays
      return Number.isInteger(value) && (value as number) >= min && (value as number) <= max ? { value: value as number } : { error: `Must be a whole number of days from ${min} to ${max}.` }
    }
  },
  'sla.paused_statuses': {
    default: [],
    // Closed stops the clocks anyway (it meets resolution); Pending always pauses.
    check: (value) => Array.isArray(value) && value.length <= 50 && value.every((v) => Number.isInteger(v) && v >= 1 && v <= 1000 && v !== 3)
      ? { value: [...new Set(value as number[])].filter((v) => v !== 2).sort((a, b) => a - b) }
      : { error: 'Must be a list of status numbers (not 3, Closed); Pending (2) always pauses.' }
  },
  'reports.admins_only': { default: false, check: boolean },
  'tickets.merge_undo_hours': {
    default: 24,
    check: (value) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 720 ? { value: value as number } : { error: 'Must be a whole number of hours from 0 to 720.' }
  }
}

/** Every setting's key, in a stable order. */
export const SETTING_KEYS = Object.keys(specs) as SettingKey[]

/** The built-in defaults of every setting. */
export function defaultSettings (): Settings {
  return Object.fromEntries(SETTING_KEYS.map((key) => [key, structuredClone(specs[key].default)])) as unknown as Settings
}

/** Stored values over the defaults; a stored value that no longer passes its check (or an unknown key) is ignored. */
export function settingsFrom (stored: Record<string, unknown>): Settings {
  const settings = defaultSettings() as unknown as Record<string, unknown>
  for (const key of SETTING_KEYS) {
    if (!(key in stored)) continue
    const checked = specs[key].check(stored[key])
    if ('value' in checked) settings[key] = checked.value
  }
  return settings as unknown as Settings
}

/** Checks a patch: 422 keyed by setting for unknown keys and bad values; returns the values to store. */
export function checkSettingsPatch (patch: Record<string, unknown>): Partial<Settings> {
  const errors: Record<string, string[]> = {}
  const values: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(patch)) {
    const spec = (specs as Record<string, SettingSpec<SettingKey>>)[key]
    if (spec === undefined) {
      errors[key] = ['Unknown setting.']
      continue
    }
    const checked = spec.check(value)
    if ('error' in checked) errors[key] = [checked.error]
    else values[key] = checked.value
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
  return values as Partial<Settings>
}

/** Whether the settings require two-factor authentication of this person's role. */
export function twoFactorRequiredFor (settings: Settings, user: Pick<User, 'role'>): boolean {
  return settings['auth.two_factor_required'].includes(userType(user))
}

/** A stored setting. */
export interface StoredSetting { key: string, value: unknown, updated_at: DateTimeString }

/** Storage port of the settings (part of `Store`, same conventions). */
export interface SettingsRepository {
  /** Every stored setting, values parsed from JSON. */
  all(): Promise<StoredSetting[]>
  /** Writes each key's value (insert or replace), in one transaction with the caller's. */
  put(values: Record<string, unknown>): Promise<void>
}

/**
 * 403 when `actor` is a customer whose address is unconfirmed while the settings require a verified
 * address before the first ticket (`auth.email_verification` = `required`). Reads the settings
 * only for unconfirmed customers.
 */
export async function ensureMayOpenTicket (store: { settings: SettingsRepository }, actor: Pick<User, 'role' | 'status'>): Promise<void> {
  if (actor.role !== Role.Customer || actor.status !== UserStatus.Unconfirmed) return
  const stored = await store.settings.all()
  const settings = settingsFrom(Object.fromEntries(stored.map((s) => [s.key, s.value])))
  if (settings['auth.email_verification'] === 'required') {
    throw new ForbiddenError('Confirm your email address first: open the link we mailed you (or ask for a new one).')
  }
}
