import { ValidationError, type FieldErrors } from '../errors.js'
import type { ServiceContext } from '../context.js'
import { plainTextInput } from '../html.js'
import { throwIfInvalid } from '../id-lists.js'
import type { Store } from '../store.js'
import type { NewUser, UserPatch } from './user-store.js'
import { optionalText, textLength } from '../text-input.js'
import { LIMITS, UserStatus, type RoleNumber, type User, type UserStatusNumber } from './user.js'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** Input for a new customer or agent, whichever door it came through. */
export interface NewPersonInput {
  first_name: string
  last_name: string
  email: string
  company?: string | null
  password: string
  password_confirmation?: string | undefined
}

export interface PersonPatchInput {
  first_name?: string
  last_name?: string
  email?: string
  company?: string | null
  new_password?: string
  new_password_confirmation?: string
  timezone?: string
  /** 1 Active, 2 Unconfirmed, 3 Banned: how staff ban and unban people (the spec leaves transitions open). */
  status?: UserStatusNumber
}

/**
 * A person's name as stored: plain text as typed (CONTRACT §17: `<` and `>` escaped, nothing stripped,
 * whitespace collapsed), so names shown to other people and in notifications never carry markup.
 */
export function personName (value: string): string {
  return plainTextInput(value)
}

/** `personName` of a name that may be absent. */
export function optionalPersonName (value: string | undefined): string | undefined {
  return value === undefined ? undefined : personName(value)
}

function checkName (errors: FieldErrors, field: string, value: string | undefined): void {
  if (value === undefined) return
  const name = personName(value)
  if (name === '') errors[field] = [`The ${field.replace('_', ' ')} field is required.`]
  else if (textLength(name) > LIMITS.name) errors[field] = [`The ${field.replace('_', ' ')} may not be greater than ${LIMITS.name} characters.`]
}

function checkEmail (errors: FieldErrors, value: string | undefined): void {
  if (value === undefined) return
  if (!EMAIL.test(value) || value.length > LIMITS.email) errors.email = ['The email must be a valid email address.']
}

function checkPassword (errors: FieldErrors, field: string, password: string | undefined, confirmation: string | undefined): void {
  if (password === undefined) return
  if (password.length < LIMITS.password) {
    errors[field] = [`The ${field.replace('_', ' ')} must be at least ${LIMITS.password} characters.`]
  } else if (confirmation === undefined) {
    errors[field] = [`The ${field.replace('_', ' ')} confirmation is required.`]
  } else if (confirmation !== password) {
    errors[field] = [`The ${field.replace('_', ' ')} confirmation does not match.`]
  }
}

function checkCompany (errors: FieldErrors, value: string | null | undefined): void {
  if (value !== undefined && value !== null) optionalText(errors, 'company', value, LIMITS.company)
}

/** A company as stored: trimmed, and null when blank (nullable fields are null when empty); undefined stays absent. */
export function normaliseCompany (company: string | null | undefined): string | null | undefined {
  if (company === undefined) return undefined
  const text = company?.trim() ?? ''
  return text === '' ? null : text
}

function throwIfAny (errors: FieldErrors): void {
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
}

/**
 * The rules for a new person (CLI and HTTP alike). `confirm: false` skips the
 * confirmation check for doors that have none (the CLI's `users:create`).
 */
export function checkNewPerson (input: NewPersonInput, confirm = true): void {
  throwIfAny(newPersonErrors(input, confirm))
}

/** What `checkNewPerson` finds wrong, by field (empty when nothing is): for doors that check many people at once. */
export function newPersonErrors (input: NewPersonInput, confirm = true): FieldErrors {
  const errors: FieldErrors = {}
  checkName(errors, 'first_name', input.first_name)
  checkName(errors, 'last_name', input.last_name)
  checkEmail(errors, input.email)
  checkCompany(errors, input.company)
  checkPassword(errors, 'password', input.password, confirm ? input.password_confirmation : input.password)
  return errors
}

export function checkPersonPatch (input: PersonPatchInput): void {
  const errors: FieldErrors = {}
  checkName(errors, 'first_name', input.first_name)
  checkName(errors, 'last_name', input.last_name)
  checkEmail(errors, input.email)
  checkCompany(errors, input.company)
  checkPassword(errors, 'new_password', input.new_password, input.new_password_confirmation)
  if (input.status !== undefined && !(Object.values(UserStatus) as number[]).includes(input.status)) {
    errors.status = ['The status must be 1 (Active), 2 (Unconfirmed) or 3 (Banned).']
  }
  throwIfAny(errors)
}

/** Hashes `password` unless it is undefined. */
export async function hashIfGiven (ctx: ServiceContext, password: string | undefined): Promise<string | undefined> {
  return password === undefined ? undefined : await ctx.hasher.hash(password)
}

export function normaliseEmail (email: string): string {
  return email.trim()
}

/** The fields of a new person that are stored as given (after normalising). */
export type NewPersonFields = Pick<NewPersonInput, 'first_name' | 'last_name' | 'email' | 'company'>

/**
 * The stored form of a new person, whichever service creates them: Active, names
 * as plain text, the email trimmed, the company trimmed (null when blank or absent).
 */
export function newPersonRow (role: RoleNumber, person: NewPersonFields, passwordHash: string | null): NewUser {
  return {
    role,
    first_name: personName(person.first_name),
    last_name: personName(person.last_name),
    email: normaliseEmail(person.email),
    company: normaliseCompany(person.company) ?? null,
    status: UserStatus.Active,
    password_hash: passwordHash
  }
}

/**
 * Bulk creation's rows (volume seeding, migrations from other systems):
 * people of `role` who share one password hash (or null for no usable
 * password), names, emails and companies checked as for one person, every
 * error keyed `N.field` (422 for the whole list).
 */
export function checkedNewPersonRows (
  role: RoleNumber, people: ReadonlyArray<Omit<NewPersonInput, 'password' | 'password_confirmation'>>, passwordHash: string | null
): NewUser[] {
  const errors: FieldErrors = {}
  people.forEach((person, index) => {
    const found = newPersonErrors({ ...person, password: 'checked-by-the-caller' }, false)
    for (const [field, messages] of Object.entries(found)) errors[`${index}.${field}`] = messages
  })
  throwIfInvalid(errors)
  return people.map((person) => newPersonRow(role, person, passwordHash))
}

/**
 * `checkNewPerson` then `newPersonRow` with the password hashed. `company: false`
 * for doors that take no company (agents, self-registration): one sent anyway is
 * checked but not stored.
 */
export async function checkedNewPersonRow (
  ctx: ServiceContext, role: RoleNumber, input: NewPersonInput, options: { confirm?: boolean, company?: boolean } = {}
): Promise<NewUser> {
  checkNewPerson(input, options.confirm ?? true)
  const passwordHash = await ctx.hasher.hash(input.password)
  return newPersonRow(role, options.company === false ? { ...input, company: null } : input, passwordHash)
}

/**
 * The stored fields a person's update changes: names as plain text, the email
 * trimmed, `own` (what only that kind of person has, already normalised) and
 * the status; absent keys stay absent. The password is apart (`savePersonPatch`).
 */
export function personPatch (input: PersonPatchInput, own: UserPatch = {}): UserPatch {
  return {
    ...pickDefined({ first_name: optionalPersonName(input.first_name), last_name: optionalPersonName(input.last_name), ...own, status: input.status }),
    ...(input.email !== undefined ? { email: normaliseEmail(input.email) } : {})
  }
}

/** Writes `fields` and the new password's hash (when given) in `tx`; a changed password signs the person out everywhere. */
export async function savePersonPatch (tx: Store, id: number, fields: UserPatch, passwordHash: string | undefined): Promise<User | null> {
  const user = await tx.users.update(id, { ...fields, ...(passwordHash !== undefined ? { password_hash: passwordHash } : {}) })
  if (passwordHash !== undefined) await tx.tokens.deleteAllForUser(id)
  return user
}

/** Drops keys whose value is undefined, so a partial update keeps absent fields. */
export function pickDefined<T extends Record<string, unknown>> (values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>
}
