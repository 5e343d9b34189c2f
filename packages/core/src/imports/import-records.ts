import { checkCategoryInput, type CategoryInput } from '../categories/category.js'
import { ValidationError, type FieldErrors } from '../errors.js'
import { formatDateTime, type DateTimeString } from '../time.js'
import { CommentType, type CommentTypeNumber } from '../tickets/comment.js'
import { checkedTitle } from '../tickets/ticket-input.js'
import { textLength } from '../text-input.js'
import { TICKET_LIMITS, TicketStatus, type TicketStatusNumber } from '../tickets/ticket.js'
import { checkPersonPatch, normaliseEmail, personName } from '../users/user-input.js'
import {
  LIMITS, noPermissions, PERMISSION_KEYS, Role, UserStatus, type Permissions, type RoleNumber, type UserStatusNumber
} from '../users/user.js'
import { ImportRecordError, type SourceRecord } from './import-source.js'

/** A person of the file: names and email checked, email normalised. */
export interface ImportedPerson {
  first_name: string
  last_name: string
  email: string
  /** Optional; without one the account has no usable password until it is reset. */
  password: string | null
}

/** Who wrote a comment: an agent or customer of the file, or (null) the ticket's owner. */
export type CommentAuthorRef = { kind: 'agent' | 'customer', id: string } | null

export interface ImportedComment {
  location: string
  externalId: string
  /** As given: sanitised (and checked for content) when the comment is written, so re-runs skip the work. */
  body: string
  type: CommentTypeNumber
  private: boolean
  author: CommentAuthorRef
  created_at: DateTimeString | null
}

/** A validated record, its references still external ids (resolved when its batch is written). */
export type ImportItem =
  | { kind: 'category', location: string, externalId: string, category: CategoryInput }
  | { kind: 'agent', location: string, externalId: string, person: ImportedPerson, role: RoleNumber, permissions: Permissions, categories: string[] }
  | { kind: 'customer', location: string, externalId: string, person: ImportedPerson, company: string | null, status: UserStatusNumber, marketplace_username: string | null }
  | {
    kind: 'ticket'
    location: string
    externalId: string
    customer: string
    category: string
    agent: string | null
    title: string
    /** As given: the tickets module's import sanitises and checks it. */
    body: string
    status: TicketStatusNumber
    private: boolean
    purchase_code: string | null
    created_at: DateTimeString | null
    updated_at: DateTimeString | null
    comments: ImportedComment[]
  }
  | (ImportedComment & { kind: 'comment', ticket: string })

/** Fails the record at `location` with the first problem a check recorded, if any. */
export function failOn (errors: FieldErrors, location: string): void {
  const first = Object.values(errors)[0]?.[0]
  if (first !== undefined) throw new ImportRecordError(location, first)
}

/** Field checks that collect every problem of one record, then fail with the first, naming the record. */
class RecordReader {
  readonly errors: FieldErrors = {}
  constructor (readonly location: string, readonly value: Record<string, unknown>) {}

  private fail (field: string, message: string): void {
    this.errors[field] ??= [message]
  }

  optionalString (field: string): string | null {
    const v = this.value[field]
    if (v === undefined || v === null || v === '') return null
    if (typeof v === 'string') return v
    if (typeof v === 'number' && Number.isFinite(v)) return String(v)
    this.fail(field, `The ${field} must be a string.`)
    return null
  }

  string (field: string): string {
    const v = this.optionalString(field)
    if (v === null || v.trim() === '') this.fail(field, `The ${field} field is required.`)
    return v ?? ''
  }

  /** An external id: a non-empty string or number, at most 191 characters. */
  ref (field: string, required: true): string
  ref (field: string, required: false): string | null
  ref (field: string, required: boolean): string | null {
    const v = required ? this.string(field).trim() : this.optionalString(field)?.trim() ?? null
    if (v !== null && v.length > 191) this.fail(field, `The ${field} may not be longer than 191 characters.`)
    return v === '' ? null : v
  }

  boolean (field: string, fallback: boolean): boolean {
    const v = this.value[field]
    if (v === undefined || v === null || v === '') return fallback
    if (v === true || v === 1 || v === '1' || v === 'true') return true
    if (v === false || v === 0 || v === '0' || v === 'false') return false
    this.fail(field, `The ${field} must be true or false.`)
    return fallback
  }

  /** A number of `allowed`, or one of `names` (case-insensitive) mapped to its number. */
  choice<T extends number> (field: string, names: Record<string, T>, fallback: T): T {
    const v = this.value[field]
    if (v === undefined || v === null || v === '') return fallback
    const key = String(v).trim().toLowerCase()
    const byName = names[key]
    if (byName !== undefined) return byName
    const byNumber = Object.values(names).find((n) => String(n) === key)
    if (byNumber !== undefined) return byNumber
    this.fail(field, `The ${field} must be one of ${Object.keys(names).join(', ')}.`)
    return fallback
  }

  /** `YYYY-MM-DD HH:MM:SS` (UTC) or any ISO 8601 datetime, stored as UTC. */
  dateTime (field: string): DateTimeString | null {
    const v = this.optionalString(field)
    if (v === null) return null
    const iso = /^\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?$/.test(v) ? `${v.replace(' ', 'T')}Z` : v
    const date = new Date(iso)
    if (Number.isNaN(date.getTime())) {
      this.fail(field, `The ${field} must be a datetime (YYYY-MM-DD HH:MM:SS or ISO 8601).`)
      return null
    }
    return formatDateTime(date)
  }

  /** Runs a domain check and keeps its field errors. */
  check (fn: () => void): void {
    try {
      fn()
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      for (const [field, messages] of Object.entries(error.errors)) this.errors[field] ??= messages
    }
  }

  done (): void {
    failOn(this.errors, this.location)
  }
}

/** A body is required; its HTML is cleaned when written (only for records not imported before). */
function bodyText (r: RecordReader): string {
  const body = r.string('body')
  if (textLength(body) > TICKET_LIMITS.body) r.errors.body ??= [`The body may not be greater than ${TICKET_LIMITS.body} characters.`]
  return body
}

function person (r: RecordReader): ImportedPerson {
  const input = { first_name: personName(r.string('first_name')), last_name: personName(r.string('last_name')), email: normaliseEmail(r.string('email')) }
  const password = r.optionalString('password')
  r.check(() => {
    checkPersonPatch({ ...input, ...(password !== null ? { new_password: password, new_password_confirmation: password } : {}) })
  })
  return { ...input, password }
}

/** Agents and customers without an id are known by their email. */
function personId (r: RecordReader): string {
  return r.ref('id', false) ?? normaliseEmail(String(r.value.email ?? '')).toLowerCase()
}

const statuses = { open: TicketStatus.Open, pending: TicketStatus.Pending, closed: TicketStatus.Closed }
const commentTypes = { reply: CommentType.Reply, note: CommentType.Note }
const userStatuses = { active: UserStatus.Active, unconfirmed: UserStatus.Unconfirmed, banned: UserStatus.Banned }
const staffRoles = { admin: Role.Admin, agent: Role.Agent }

function permissions (r: RecordReader): Permissions {
  const granted = noPermissions()
  const v = r.value.permissions
  if (v === undefined || v === null) return granted
  const keys = Array.isArray(v) ? v : typeof v === 'object' ? Object.entries(v).filter(([, on]) => on === true).map(([k]) => k) : null
  if (keys === null) {
    r.errors.permissions ??= ['The permissions must be a list of keys or an object of flags.']
    return granted
  }
  for (const key of keys) {
    if ((PERMISSION_KEYS as readonly unknown[]).includes(key)) granted[key as keyof Permissions] = true
    else r.errors.permissions ??= [`Unknown permission "${String(key)}". Allowed: ${PERMISSION_KEYS.join(', ')}.`]
  }
  return granted
}

function refList (r: RecordReader, field: string): string[] {
  const v = r.value[field]
  if (v === undefined || v === null) return []
  if (!Array.isArray(v) || v.some((id) => (typeof id !== 'string' && typeof id !== 'number') || String(id).trim() === '')) {
    r.errors[field] ??= [`The ${field} must be a list of ids.`]
    return []
  }
  return v.map((id) => String(id).trim())
}

/**
 * Reply or note is `kind`; where `type` does not already say what the record
 * is (nested comments, the `comments` section), `type` is accepted too.
 */
function commentKindField (value: Record<string, unknown>): string {
  return value.kind === undefined && value.type !== undefined && value.type !== 'comment' ? 'type' : 'kind'
}

function comment (r: RecordReader, fallbackId: string): ImportedComment {
  const body = bodyText(r)
  const agent = r.ref('agent', false)
  const customer = r.ref('customer', false)
  if (agent !== null && customer !== null) r.errors.agent ??= ['A comment has one author: give agent or customer, not both.']
  return {
    location: r.location,
    externalId: r.ref('id', false) ?? fallbackId,
    body,
    type: r.choice(commentKindField(r.value), commentTypes, CommentType.Reply),
    private: r.boolean('private', false),
    author: agent !== null ? { kind: 'agent', id: agent } : customer !== null ? { kind: 'customer', id: customer } : null,
    created_at: r.dateTime('created_at')
  }
}

function nestedComments (r: RecordReader, ticketId: string): ImportedComment[] {
  const v = r.value.comments
  if (v === undefined || v === null) return []
  if (!Array.isArray(v)) {
    r.errors.comments ??= ['The comments must be a list.']
    return []
  }
  return v.map((item, index) => {
    const nested = new RecordReader(`${r.location}${r.location.startsWith('Line') ? ', ' : '.'}comments[${index}]`, typeof item === 'object' && item !== null ? item as Record<string, unknown> : {})
    const parsed = comment(nested, `${ticketId}#${index}`)
    nested.done()
    return parsed
  })
}

/** Checks one record of the file (docs/import-format.md). Throws ImportRecordError naming it and the first problem. */
export function importItem (record: SourceRecord): ImportItem {
  const r = new RecordReader(record.location, record.value)
  const { location } = r
  let item: ImportItem
  switch (record.type) {
    case 'category': {
      const externalId = r.ref('id', true)
      let category: CategoryInput = { name: '' }
      r.check(() => {
        category = checkCategoryInput({
          name: r.string('name'),
          ...(r.value.thumbnail !== undefined ? { thumbnail: r.optionalString('thumbnail') } : {}),
          ...(r.value.purchase_verification !== undefined ? { purchase_verification: Number(r.value.purchase_verification) } : {}),
          ...(r.value.marketplace_item_id !== undefined ? { marketplace_item_id: r.value.marketplace_item_id === null ? null : Number(r.value.marketplace_item_id) } : {})
        }, false) as CategoryInput
      })
      item = { kind: 'category', location, externalId, category }
      break
    }
    case 'agent':
      item = {
        kind: 'agent', location, externalId: personId(r), person: person(r), role: r.choice('role', staffRoles, Role.Agent), permissions: permissions(r), categories: refList(r, 'categories')
      }
      break
    case 'customer': {
      const company = r.optionalString('company')
      const marketplace = r.optionalString('marketplace_username')
      if (company !== null && company.length > LIMITS.company) r.errors.company ??= [`The company may not be greater than ${LIMITS.company} characters.`]
      if (marketplace !== null && marketplace.length > LIMITS.name) r.errors.marketplace_username ??= [`The marketplace username may not be greater than ${LIMITS.name} characters.`]
      item = {
        kind: 'customer', location, externalId: personId(r), person: person(r), company, status: r.choice('status', userStatuses, UserStatus.Active), marketplace_username: marketplace
      }
      break
    }
    case 'ticket': {
      const externalId = r.ref('id', true)
      const errors: FieldErrors = {}
      const title = checkedTitle(errors, r.string('title'))
      for (const [field, messages] of Object.entries(errors)) r.errors[field] ??= messages
      const body = bodyText(r)
      const purchaseCode = r.optionalString('purchase_code')
      if (purchaseCode !== null && purchaseCode.length > TICKET_LIMITS.purchaseCode) r.errors.purchase_code ??= [`The purchase code may not be greater than ${TICKET_LIMITS.purchaseCode} characters.`]
      item = {
        kind: 'ticket',
        location,
        externalId,
        customer: r.ref('customer', true),
        category: r.ref('category', true),
        agent: r.ref('agent', false),
        title,
        body,
        status: r.choice('status', statuses, TicketStatus.Open),
        private: r.boolean('private', true),
        purchase_code: purchaseCode,
        created_at: r.dateTime('created_at'),
        updated_at: r.dateTime('updated_at'),
        comments: []
      }
      r.done()
      item.comments = nestedComments(r, externalId)
      break
    }
    case 'comment': {
      const ticket = r.ref('ticket', true)
      const parsed = comment(r, '')
      if (parsed.externalId === '') r.errors.id ??= ['The id field is required.']
      item = { ...parsed, kind: 'comment', ticket }
      break
    }
    default:
      throw new ImportRecordError(location, `unknown record type "${record.type}"; the types are category, agent, customer, ticket, comment.`)
  }
  r.done()
  return item
}
