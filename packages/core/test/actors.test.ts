import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import {
  actorIdOf, actsAsAdmin, actsAsStaff, anonymous, automationActor, isPerson, mailSenderActor, personActor, personOf,
  requirePerson, requireSignedIn, SYSTEM, systemActor, toActor, userOf, type ActorInput
} from '../src/users/actor.js'
import { canManageAgents, canManageCustomers, canSeeEmailOf, hasPermission } from '../src/users/user-policy.js'
import { ForbiddenError, UnauthenticatedError } from '../src/errors.js'
import { EventBus, type DomainEvent, type EventRecorder } from '../src/events.js'
import type { Store } from '../src/store.js'
import { defaultNotificationSettings, noPermissions, Role, UserStatus, type RoleNumber, type User } from '../src/users/user.js'

function user (id: number, role: RoleNumber, permissions: Partial<User['permissions']> = {}): User {
  return {
    id, role, first_name: 'Test', last_name: String(id), email: `u${id}@example.com`, company: null, status: UserStatus.Active,
    marketplace_username: null, timezone: null, permissions: { ...noPermissions(), ...permissions }, notifications: defaultNotificationSettings(),
    last_login_at: null, created_at: '2030-01-01 00:00:00', updated_at: '2030-01-01 00:00:00'
  }
}

const admin = user(1, Role.Admin)
const agent = user(2, Role.Agent, { manage_customers: true })
const customer = user(3, Role.Customer)
const rule = automationActor({ type: 'trigger', id: 7, name: 'Escalate' })

describe('actors', () => {
  it('a plain user is that person acting through the API; a person actor keeps its door, address and the plain user', () => {
    const actor = toActor(agent)
    assert.equal(actor.kind, 'person')
    assert.ok(actor.kind === 'person' && actor.channel === 'api' && actor.ip === null && actor.user === agent)
    const console = personActor(agent, 'console', '203.0.113.9')
    assert.equal(toActor(console), console, 'an actor is taken as it is')
    assert.deepEqual([console.id, console.role, console.permissions], [agent.id, agent.role, agent.permissions])
    assert.equal(userOf(console), agent)
    assert.equal(personActor(console, 'mail').user, agent, 'a person actor made from another keeps the plain user')
    assert.equal(personOf(console), agent)
  })

  it('null is not an actor: refused with a TypeError naming what to pass', () => {
    for (const check of [toActor, isPerson, actsAsAdmin, personOf] as Array<(a: ActorInput) => unknown>) {
      assert.throws(() => check(null as unknown as ActorInput), (error: unknown) => error instanceof TypeError && /SYSTEM, anonymous\(\)/.test(error.message))
    }
  })

  it('who holds which rights: administrators, the system and rules act as administrators; nobody and mail senders hold none', () => {
    const table: Array<[string, ActorInput, boolean, boolean]> = [
      ['admin', admin, true, true],
      ['agent', agent, false, true],
      ['customer', customer, false, false],
      ['system', SYSTEM, true, true],
      ['named system', systemActor('jobs'), true, true],
      ['rule', rule, true, true],
      ['verified mail sender', mailSenderActor(admin.email, admin, true), false, false],
      ['anonymous', anonymous(), false, false]
    ]
    for (const [name, actor, asAdmin, asStaff] of table) {
      assert.equal(actsAsAdmin(actor), asAdmin, `${name} as administrator`)
      assert.equal(actsAsStaff(actor), asStaff, `${name} as staff`)
      assert.equal(canManageAgents(actor), asAdmin, `${name} manages agents`)
    }
    assert.equal(hasPermission(agent, 'manage_customers'), true)
    assert.equal(hasPermission(agent, 'delete_tickets'), false)
    assert.equal(canManageCustomers(SYSTEM), true)
    assert.equal(canManageCustomers(anonymous()), false)
    assert.equal(canManageCustomers(mailSenderActor(agent.email, agent, true)), false, 'a mail is never a permission')
  })

  it('events name the user behind the actor, or null', () => {
    assert.equal(actorIdOf(personActor(agent, 'console')), agent.id)
    assert.equal(actorIdOf(customer), customer.id)
    assert.equal(actorIdOf(SYSTEM), null)
    assert.equal(actorIdOf(rule), null)
    assert.equal(actorIdOf(anonymous()), null)
    assert.equal(actorIdOf(mailSenderActor('x@example.com', customer, false)), null, 'an unverified sender is nobody in particular')
    assert.equal(actorIdOf(mailSenderActor(customer.email, customer, true)), customer.id)
  })

  it('emails: staff and the system read every one, a person their own, nobody else', () => {
    assert.equal(canSeeEmailOf(agent, customer), true)
    assert.equal(canSeeEmailOf(SYSTEM, customer), true)
    assert.equal(canSeeEmailOf(customer, customer), true)
    assert.equal(canSeeEmailOf(customer, agent), false)
    assert.equal(canSeeEmailOf(anonymous(), customer), false)
  })

  it('requirePerson: 401 for nobody, 403 for the system, rules and mail senders', () => {
    assert.equal(requirePerson(customer).id, customer.id)
    assert.throws(() => requirePerson(anonymous()), UnauthenticatedError)
    for (const actor of [SYSTEM, rule, mailSenderActor('x@example.com', null, false)]) assert.throws(() => requirePerson(actor), ForbiddenError)
    assert.throws(() => requireSignedIn(anonymous()), UnauthenticatedError)
    assert.equal(requireSignedIn(SYSTEM), SYSTEM)
  })
})

describe('EventBus.emitMany', () => {
  it('hands a batch to recorders that take one, the others each event in order; subscribers hear them after commit', async () => {
    const bus = new EventBus()
    const calls: string[] = []
    const batched: EventRecorder = Object.assign(async (_tx: Store, event: DomainEvent) => { calls.push(`one:${event.type}`) }, {
      many: async (_tx: Store, events: readonly DomainEvent[]) => { calls.push(`many:${events.map((e) => e.type).join(',')}`) }
    })
    bus.record(batched)
    bus.record(async (_tx, event) => { calls.push(`each:${event.type}`) })
    const heard: string[] = []
    bus.subscribe((event) => { heard.push(event.type) })
    const store = { transaction: async <T>(fn: (tx: Store) => Promise<T>) => await fn(store) } as unknown as Store
    await bus.transaction(store, async (tx) => {
      await bus.emitMany(tx, [{ type: 'A', actor_id: null }, { type: 'B', actor_id: null }])
      assert.deepEqual(heard, [], 'nothing delivered before the commit')
    })
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(calls, ['many:A,B', 'each:A', 'each:B'])
    assert.deepEqual(heard, ['A', 'B'])
  })
})
