import { ForbiddenError, UnauthenticatedError } from '../errors.js'
import { Role, type User } from './user.js'

/**
 * Who acts, said explicitly: a service is never called with "nobody" (null
 * used to mean "a trusted caller, counting as staff" in some services and
 * "anonymous" in others). Every door names its actor:
 *
 * - `PersonActor`: a signed-in person, through a door (`channel`);
 * - `SystemActor`: the help desk itself (the CLI, jobs, seeding, upkeep);
 *   trusted, it acts as an administrator;
 * - `AutomationActor`: a rule (trigger, automation, macro, SLA) acting on
 *   its own; it acts as an administrator;
 * - `MailSenderActor`: whoever a received mail is from, as far as the
 *   inbound mail service could establish it;
 * - `AnonymousActor`: nobody signed in (the public knowledge base, routes
 *   with optional authentication).
 */
export type Actor = PersonActor | SystemActor | AutomationActor | MailSenderActor | AnonymousActor

/**
 * What services accept: an actor, or a plain `User`, shorthand for that
 * person acting through the API (what tests, the CLI and a host's code
 * usually have at hand). Services normalise it once with `toActor`.
 */
export type ActorInput = Actor | User

/**
 * The door a person acts through: the web console (its session cookie),
 * the API (a bearer token, or the host's `authenticate`), mail, an import,
 * or the command line.
 */
export type Channel = 'console' | 'api' | 'mail' | 'import' | 'cli'

/**
 * A signed-in person: the user's own fields (policies read `id`, `role` and
 * `permissions` directly, and a person actor can stand wherever a `User`
 * is wanted) plus how they came in.
 */
export interface PersonActor extends User {
  readonly kind: 'person'
  /** The user as loaded, without the fields below (memos key on this object; events embed it). */
  readonly user: User
  readonly channel: Channel
  /** The client's address, when the door knows it. */
  readonly ip: string | null
}

/** The help desk acting on its own behalf (`name` says what: `cli`, `seed`, `jobs`...). */
export interface SystemActor {
  readonly kind: 'system'
  readonly name: string
}

/** What kind of rule an automation actor is. */
export type AutomationRuleType = 'trigger' | 'automation' | 'macro' | 'sla'

/** A rule of the help desk acting on its own (triggers, timed automations, SLA escalations). */
export interface AutomationActor {
  readonly kind: 'automation'
  readonly rule: { readonly type: AutomationRuleType, readonly id: number, readonly name: string }
}

/**
 * Whoever sent a received mail: its `From:` address, the user of that
 * address if there is one, and whether the inbound mail service verified
 * that the mail is theirs (see `InboundMailService`). When it posts a
 * verified mail as that person, it acts as `personActor(user, 'mail')`.
 */
export interface MailSenderActor {
  readonly kind: 'mail'
  readonly address: string
  readonly user: User | null
  readonly verified: boolean
}

/** Nobody signed in. */
export interface AnonymousActor {
  readonly kind: 'anonymous'
}

/** The help desk itself: the CLI, jobs, seeding, upkeep. */
export const SYSTEM: SystemActor = Object.freeze({ kind: 'system', name: 'system' })

const ANONYMOUS: AnonymousActor = Object.freeze({ kind: 'anonymous' })

export function anonymous (): AnonymousActor {
  return ANONYMOUS
}

export function systemActor (name: string): SystemActor {
  return Object.freeze({ kind: 'system', name })
}

export function automationActor (rule: AutomationActor['rule']): AutomationActor {
  return Object.freeze({ kind: 'automation', rule: Object.freeze({ ...rule }) })
}

export function mailSenderActor (address: string, user: User | null, verified: boolean): MailSenderActor {
  return Object.freeze({ kind: 'mail', address, user, verified })
}

/** `user` acting through `channel` (from `ip`, when known). */
export function personActor (user: User, channel: Channel = 'api', ip: string | null = null): PersonActor {
  const plain = isActor(user) ? (user as PersonActor).user : user
  return { ...plain, kind: 'person', user: plain, channel, ip }
}

function isActor (input: ActorInput): input is Actor {
  // null once meant "trusted" to some services and "anonymous" to others: refused outright, never guessed.
  if (input === null || typeof input !== 'object') throw new TypeError('An actor is required: a person (a User), SYSTEM, anonymous() or another actor of actor.ts; null is no longer one.')
  return 'kind' in input && typeof input.kind === 'string'
}

/** The actor `input` stands for: itself, or a plain user as that person acting through the API. */
export function toActor (input: ActorInput): Actor {
  return isActor(input) ? input : personActor(input, 'api', null)
}

/** Whether `actor` is a signed-in person (a plain user counts as one). */
export function isPerson (actor: ActorInput): actor is PersonActor | User {
  return !isActor(actor) || actor.kind === 'person'
}

/**
 * The user behind an actor: the person, or the user of a mail sender the
 * inbound mail service verified; null for everyone else.
 */
export function personOf (actor: ActorInput): User | null {
  if (!isActor(actor)) return actor
  if (actor.kind === 'person') return actor.user
  if (actor.kind === 'mail' && actor.verified) return actor.user
  return null
}

/** The plain user of a person (a person actor's `user`, or the user itself). */
export function userOf (person: PersonActor | User): User {
  return isActor(person) ? (person as PersonActor).user : person
}

/** What events record as `actor_id`: the user behind the actor, or null (the system, a rule, nobody). */
export function actorIdOf (actor: ActorInput): number | null {
  return personOf(actor)?.id ?? null
}

/**
 * Whether `actor` holds an administrator's rights: administrators, the
 * system itself and automation rules (which act for the help desk, explicitly).
 */
export function actsAsAdmin (actor: ActorInput): boolean {
  if (!isActor(actor) || actor.kind === 'person') return actor.role === Role.Admin
  return actor.kind === 'system' || actor.kind === 'automation'
}

/** Whether `actor` acts as staff: administrators and agents, the system and automation rules. */
export function actsAsStaff (actor: ActorInput): boolean {
  if (!isActor(actor) || actor.kind === 'person') return actor.role === Role.Admin || actor.role === Role.Agent
  return actor.kind === 'system' || actor.kind === 'automation'
}

/**
 * The person an operation needs (it records who did it: an author, an
 * owner, a reader): 401 for the anonymous, 403 for every other kind of actor.
 */
export function requirePerson (input: ActorInput): PersonActor {
  const actor = toActor(input)
  if (actor.kind === 'person') return actor
  if (actor.kind === 'anonymous') throw new UnauthenticatedError()
  throw new ForbiddenError('Only a signed-in person may do this.')
}

/** 401 for the anonymous: any other actor passes (what they may do is the policies' question). */
export function requireSignedIn (input: ActorInput): Exclude<Actor, AnonymousActor> {
  const actor = toActor(input)
  if (actor.kind === 'anonymous') throw new UnauthenticatedError()
  return actor
}
