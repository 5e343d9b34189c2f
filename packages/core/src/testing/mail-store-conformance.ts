import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import type { ListQuery } from '../list/list-query.js'
import type { NewInboundMail, NewOutboundMail } from '../mail/mail-store.js'
import { Role } from '../users/user.js'
import { aTicket, assertDistinct, person, type WithStore } from './conformance-support.js'

/** A page of the mail list (`mailList`: newest first), with these exact filters. */
function mailQuery (options: { exact?: Record<string, string[]>, page?: number, perPage?: number } = {}): ListQuery {
  return { include: [], sort: [{ field: 'id', desc: true }], partial: {}, exact: options.exact ?? {}, page: options.page ?? 1, perPage: options.perPage ?? 10 }
}

/** The contract of `MailRepository` (`mail/mail-store.ts`): threads, sent and received mail, participants and opt-outs. */
export function mailStoreConformance (withStore: WithStore): void {
  describe('mail', () => {
    it('threads: ensureThread creates a ticket\'s thread once and returns the stored one, also to concurrent callers; found by ticket and by reply token', async () => {
      await withStore(async ({ store }) => {
        const { ticketId } = await aTicket(store)
        const other = await aTicket(store, 'other@example.com')
        assert.equal(await store.mail.findThread(ticketId), null)
        assert.equal(await store.mail.findThreadByToken('no-such-token'), null)
        const thread = { ticket_id: ticketId, reply_token: 'token-1', root_message_id: '<root-1@example.com>' }
        assert.deepEqual(await store.mail.ensureThread(thread), thread)
        assert.deepEqual(await store.mail.ensureThread({ ...thread, reply_token: 'token-2', root_message_id: '<root-2@example.com>' }), thread, 'the stored one wins')
        assert.deepEqual(await store.mail.findThread(ticketId), thread)
        assert.deepEqual(await store.mail.findThreadByToken('token-1'), thread)
        assert.equal(await store.mail.findThreadByToken('token-2'), null)

        const racing = await Promise.all([1, 2, 3, 4].map(async (n) => await store.transaction(async (tx) =>
          await tx.mail.ensureThread({ ticket_id: other.ticketId, reply_token: `race-${n}`, root_message_id: `<race-${n}@example.com>` }))))
        assert.equal(new Set(racing.map((t) => t.reply_token)).size, 1, 'concurrent callers all get the one stored thread')
        assert.deepEqual(await store.mail.findThread(other.ticketId), racing[0])
      })
    })

    it('outbound: createOutbound records pending mails, ids in order; found by id and by unsubscribe token; updated as patched', async () => {
      await withStore(async ({ store, clock }) => {
        const { ownerId, ticketId } = await aTicket(store)
        const agent = await store.users.create(person(Role.Agent, 'agent@example.com'))
        const ids = await store.mail.createOutbound([
          outbound({ ticket_id: ticketId, user_id: ownerId, author_id: agent.id, message_id: '<out-1@example.com>', unsubscribe_token: 'a'.repeat(40) }),
          outbound({ ticket_id: ticketId, user_id: agent.id, recipient: 'agent@example.com', message_id: '<out-2@example.com>', kind: 'assigned' })
        ])
        assert.equal(ids.length, 2)
        assertDistinct(ids, 'outbound mails')
        assert.deepEqual(await store.mail.createOutbound([]), [])
        const first = await store.mail.findById(ids[0]!)
        assert.deepEqual(first, {
          id: ids[0], direction: 'out', status: 'pending', kind: 'reply', message_id: '<out-1@example.com>', ticket_id: ticketId, comment_id: null,
          user_id: ownerId, author_id: agent.id, sender: null, recipient: 'owner@example.com', subject: 'Re: A ticket', error: null, attempts: 0,
          unsubscribe_token: 'a'.repeat(40), created_at: clock.at(), updated_at: clock.at(), sent_at: null
        })
        assert.equal((await store.mail.findById(ids[1]!))?.kind, 'assigned')
        assert.deepEqual(await store.mail.findByUnsubscribeToken('a'.repeat(40)), first)
        assert.equal(await store.mail.findByUnsubscribeToken('b'.repeat(40)), null)
        assert.equal(await store.mail.findById(987654), null)

        clock.advance(1000)
        await store.mail.update(ids[0]!, { status: 'failed', attempts: 1, error: 'refused' })
        await store.mail.update(ids[0]!, { status: 'sent', attempts: 2, error: null, sent_at: clock.at() })
        assert.deepEqual(await store.mail.findById(ids[0]!), { ...first, status: 'sent', attempts: 2, sent_at: clock.at(), updated_at: clock.at() })
        assert.equal(await store.mail.raw(ids[0]!), null, 'a sent mail has no original')
      })
    })

    it('createOutbound takes any number of recipients (more than one statement can bind), ids in order', async () => {
      await withStore(async ({ store }) => {
        const { ticketId } = await aTicket(store)
        const count = 2500
        const ids = await store.mail.createOutbound(Array.from({ length: count }, (_, i) => outbound({ ticket_id: ticketId, message_id: '<many@example.com>', recipient: `r${i}@example.com` })))
        assert.equal(ids.length, count)
        const listed = await store.mail.list('out', mailQuery({ perPage: count }))
        assert.equal(listed.total, count)
        const recipientOf = new Map(listed.items.map((m) => [m.id, m.recipient]))
        assert.ok(ids.every((id, i) => recipientOf.get(id) === `r${i}@example.com`), 'each id is its mail\'s')
      })
    })

    it('inbound: one record per dedupe key (null, nothing written, the second time, also concurrently); the original comes back byte for byte', async () => {
      await withStore(async ({ store, clock }) => {
        const raw = Buffer.from('From: ann@example.com\r\nSubject: Help\r\n\r\nbody \u00e9\u0000\xff', 'latin1')
        const id = await store.mail.createInbound(inbound({ dedupe_key: '<in-1@example.com>', raw }))
        assert.ok(id !== null)
        assert.equal(await store.mail.createInbound(inbound({ dedupe_key: '<in-1@example.com>', subject: 'Again' })), null)
        const found = await store.mail.findById(id)
        assert.deepEqual({ ...found, attempts: 0 }, {
          id, direction: 'in', status: 'received', kind: null, message_id: '<in-1@example.com>', ticket_id: null, comment_id: null,
          user_id: null, author_id: null, sender: 'ann@example.com', recipient: 'support@example.com', subject: 'Help', error: null, attempts: 0,
          unsubscribe_token: null, created_at: clock.at(), updated_at: clock.at(), sent_at: null
        })
        assert.deepEqual(await store.mail.raw(id), raw)
        assert.equal(await store.mail.raw(987654), null)

        const racing = await Promise.all([1, 2, 3, 4].map(async () => await store.mail.createInbound(inbound({ dedupe_key: 'digest:abc', message_id: null }))))
        assert.equal(racing.filter((r) => r !== null).length, 1, 'concurrent doors record a mail once')
        assert.equal((await store.mail.list('in', mailQuery())).total, 2)

        const { ownerId, ticketId } = await aTicket(store)
        await store.mail.update(id, { status: 'processed', ticket_id: ticketId, user_id: ownerId, error: 'a note' })
        const processed = await store.mail.findById(id)
        assert.deepEqual([processed?.status, processed?.ticket_id, processed?.user_id, processed?.error], ['processed', ticketId, ownerId, 'a note'])
      })
    })

    it('list: one direction, by statuses and ticket, newest first, paged, with the total; cursor pages too', async () => {
      await withStore(async ({ store }) => {
        const { ticketId } = await aTicket(store)
        const other = await aTicket(store, 'other@example.com')
        const out = await store.mail.createOutbound([1, 2, 3].map((n) => outbound({ ticket_id: ticketId, message_id: `<out-${n}@example.com>` })))
        const [elsewhere] = await store.mail.createOutbound([outbound({ ticket_id: other.ticketId, message_id: '<out-4@example.com>' })])
        const received = await store.mail.createInbound(inbound({ dedupe_key: 'k1' }))
        await store.mail.update(out[1]!, { status: 'sent' })
        const page = async (options: Parameters<typeof mailQuery>[0], direction: 'in' | 'out' = 'out'): Promise<[number[], number]> => {
          const listed = await store.mail.list(direction, mailQuery(options))
          return [listed.items.map((m) => m.id), listed.total]
        }
        assert.deepEqual(await page({}), [[elsewhere, out[2], out[1], out[0]], 4])
        assert.deepEqual(await page({ perPage: 2 }), [[elsewhere, out[2]], 4])
        assert.deepEqual(await page({ perPage: 2, page: 2 }), [[out[1], out[0]], 4])
        assert.deepEqual(await page({ exact: { status: ['pending'] } }), [[elsewhere, out[2], out[0]], 3])
        assert.deepEqual(await page({ exact: { status: ['sent', 'failed'] } }), [[out[1]], 1])
        assert.deepEqual(await page({ exact: { status: ['failed'] } }), [[], 0])
        assert.deepEqual(await page({ exact: { ticket: [String(ticketId)], status: ['pending'] } }), [[out[2], out[0]], 2])
        assert.deepEqual(await page({}, 'in'), [[received], 1])
        const byCursor = await store.mail.list('out', { ...mailQuery({ perPage: 3 }), cursor: { position: null, backward: false } })
        assert.deepEqual(byCursor.items.map((m) => m.id), [elsewhere, out[2], out[1]])
        const rest = await store.mail.list('out', { ...mailQuery({ perPage: 3 }), cursor: { position: [byCursor.items.at(-1)!.id, byCursor.items.at(-1)!.id], backward: false } })
        assert.deepEqual(rest.items.map((m) => m.id), [out[0]])
      })
    })

    it('Message-IDs: the ticket of the newest message (else of a thread root), ours or not, and a ticket\'s ids oldest first', async () => {
      await withStore(async ({ store }) => {
        const a = await aTicket(store, 'a@example.com')
        const b = await aTicket(store, 'b@example.com')
        await store.mail.ensureThread({ ticket_id: a.ticketId, reply_token: 'ta', root_message_id: '<root-a@example.com>' })
        await store.mail.createOutbound([
          outbound({ ticket_id: a.ticketId, message_id: '<a-1@example.com>' }),
          outbound({ ticket_id: a.ticketId, message_id: '<a-2@example.com>' }),
          outbound({ ticket_id: b.ticketId, message_id: '<shared@example.com>' }),
          outbound({ ticket_id: null, message_id: '<no-ticket@example.com>' })
        ])
        const reply = await store.mail.createInbound(inbound({ dedupe_key: '<in-a@example.com>', message_id: '<in-a@example.com>' }))
        await store.mail.update(reply!, { ticket_id: a.ticketId })
        await store.mail.createOutbound([outbound({ ticket_id: a.ticketId, message_id: '<shared@example.com>' })])

        assert.equal(await store.mail.ticketOfMessageIds(['<a-1@example.com>']), a.ticketId)
        assert.equal(await store.mail.ticketOfMessageIds(['<unknown@example.com>', '<in-a@example.com>']), a.ticketId, 'a received message counts')
        assert.equal(await store.mail.ticketOfMessageIds(['<shared@example.com>']), a.ticketId, 'the newest message with the id')
        assert.equal(await store.mail.ticketOfMessageIds(['<root-a@example.com>']), a.ticketId, 'a thread\'s root')
        assert.equal(await store.mail.ticketOfMessageIds(['<no-ticket@example.com>']), null, 'a message of no ticket')
        assert.equal(await store.mail.ticketOfMessageIds(['<unknown@example.com>']), null)
        assert.equal(await store.mail.ticketOfMessageIds([]), null)

        assert.equal(await store.mail.isOutboundMessageId('<a-2@example.com>'), true)
        assert.equal(await store.mail.isOutboundMessageId('<root-a@example.com>'), true, 'a thread root is ours')
        assert.equal(await store.mail.isOutboundMessageId('<in-a@example.com>'), false, 'received, not sent')
        assert.equal(await store.mail.isOutboundMessageId('<unknown@example.com>'), false)

        assert.deepEqual(await store.mail.messageIdsOfTicket(a.ticketId, 10), ['<a-1@example.com>', '<a-2@example.com>', '<in-a@example.com>', '<shared@example.com>'])
        assert.deepEqual(await store.mail.messageIdsOfTicket(a.ticketId, 2), ['<in-a@example.com>', '<shared@example.com>'], 'the newest, oldest first')
        await store.mail.createOutbound([outbound({ ticket_id: a.ticketId, message_id: '<a-1@example.com>' })])
        assert.deepEqual(await store.mail.messageIdsOfTicket(a.ticketId, 10), ['<a-2@example.com>', '<in-a@example.com>', '<shared@example.com>', '<a-1@example.com>'], 'each id once, where it was last used')
        assert.deepEqual(await store.mail.messageIdsOfTicket(b.ticketId, 10), ['<shared@example.com>'])
      })
    })

    it('countInboundSince counts the mails received from a sender since a time', async () => {
      await withStore(async ({ store, clock }) => {
        const start = clock.at()
        await store.mail.createInbound(inbound({ dedupe_key: 'k1' }))
        clock.advance(60_000)
        const since = clock.at()
        await store.mail.createInbound(inbound({ dedupe_key: 'k2' }))
        await store.mail.createInbound(inbound({ dedupe_key: 'k3', sender: 'bob@example.com' }))
        await store.mail.createOutbound([outbound({ ticket_id: null, message_id: '<out@example.com>', recipient: 'ann@example.com' })])
        assert.equal(await store.mail.countInboundSince('ann@example.com', start), 2)
        assert.equal(await store.mail.countInboundSince('ann@example.com', since), 1)
        assert.equal(await store.mail.countInboundSince('bob@example.com', since), 1)
        assert.equal(await store.mail.countInboundSince('ann@example.com', clock.at(1000)), 0)
      })
    })

    it('participants and opt-outs: adding twice counts once; optedOut answers for the ids asked about', async () => {
      await withStore(async ({ store }) => {
        const { ownerId, ticketId } = await aTicket(store)
        const other = await aTicket(store, 'other@example.com')
        const cc = await store.users.create(person(Role.Customer, 'cc@example.com'))
        assert.deepEqual(await store.mail.participantIds(ticketId), [])
        await store.mail.addParticipant(ticketId, cc.id)
        await store.mail.addParticipant(ticketId, cc.id)
        await store.mail.addParticipant(ticketId, ownerId)
        assert.deepEqual((await store.mail.participantIds(ticketId)).sort((x, y) => x - y), [ownerId, cc.id].sort((x, y) => x - y))
        assert.deepEqual(await store.mail.participantIds(other.ticketId), [])

        assert.deepEqual(await store.mail.optedOut([ownerId, cc.id]), [])
        await store.mail.optOut(cc.id)
        await store.mail.optOut(cc.id)
        assert.deepEqual(await store.mail.optedOut([ownerId, cc.id, other.ownerId]), [cc.id])
        assert.deepEqual(await store.mail.optedOut([]), [])
      })
    })

    it('attachmentsOf: the ticket\'s own or one comment\'s; people: name, email, role and status of those that exist', async () => {
      await withStore(async ({ store }) => {
        const { ownerId, ticketId } = await aTicket(store)
        const comment = await store.comments.create({ ticket_id: ticketId, user_id: ownerId, body: '<p>See attached</p>', preview: 'See attached', type: 1, private: false })
        const upload = async (name: string): Promise<string> => (await store.attachments.create({ id: randomUUID(), user_id: ownerId, name, file_name: `${randomUUID()}.txt`, mime_type: 'text/plain', size: 3 })).id
        const own = await upload('ticket.txt')
        const ofComment = await upload('comment.txt')
        await upload('unlinked.txt')
        assert.equal(await store.attachments.link([own], ownerId, { ticket_id: ticketId, comment_id: null }), 1)
        assert.equal(await store.attachments.link([ofComment], ownerId, { ticket_id: ticketId, comment_id: comment.id }), 1)
        assert.deepEqual((await store.mail.attachmentsOf(ticketId, null)).map((a) => a.name), ['ticket.txt'])
        assert.deepEqual((await store.mail.attachmentsOf(ticketId, comment.id)).map((a) => a.name), ['comment.txt'])

        const agent = await store.users.create({ ...person(Role.Agent, 'agent@example.com'), first_name: 'Ada', last_name: 'Agent' })
        const people = await store.mail.people([agent.id, ownerId, 987654])
        assert.deepEqual(people.sort((x, y) => x.id - y.id), [
          { id: ownerId, email: 'owner@example.com', first_name: 'Test', last_name: 'Person', role: Role.Customer, status: 1 },
          { id: agent.id, email: 'agent@example.com', first_name: 'Ada', last_name: 'Agent', role: Role.Agent, status: 1 }
        ].sort((x, y) => x.id - y.id))
        assert.deepEqual(await store.mail.people([]), [])
      })
    })

    it('keeps one first reply key however many callers make it at once; rotation adds a newer one and may retire the older', async () => {
      await withStore(async ({ store }) => {
        assert.deepEqual(await store.mail.replyKeys(), [])
        await Promise.all(['a', 'b', 'c', 'd'].map(async (secret) => { await store.mail.ensureReplyKey(secret) }))
        const [first, ...others] = await store.mail.replyKeys()
        assert.equal(others.length, 0)
        assert.equal(first?.id, 1)
        await store.mail.ensureReplyKey('again')
        assert.equal((await store.mail.replyKeys())[0]?.secret, first?.secret, 'an existing key is never replaced')
        assert.deepEqual(await store.mail.rotateReplyKey('second', false), { id: 2, retired: 0 })
        assert.deepEqual((await store.mail.replyKeys()).map((k) => [k.id, k.secret]), [[2, 'second'], [1, first?.secret]])
        assert.deepEqual(await store.mail.rotateReplyKey('third', true), { id: 3, retired: 2 })
        assert.deepEqual((await store.mail.replyKeys()).map((k) => k.id), [3])
      })
    })

    it('applies a conditional mail update for one of several concurrent callers only', async () => {
      await withStore(async ({ store }) => {
        const id = await store.mail.createInbound({ dedupe_key: 'held-1', message_id: null, sender: 'x@example.com', recipient: null, subject: 'Held', raw: Buffer.from('x') })
        assert.ok(id !== null)
        await store.mail.update(id, { status: 'held', error: 'Held.' })
        const won = await Promise.all([1, 2, 3, 4].map(async () => await store.mail.updateIf(id, 'held', { status: 'received' })))
        assert.equal(won.filter((w) => w).length, 1)
        assert.equal((await store.mail.findById(id))?.status, 'received')
        assert.equal(await store.mail.updateIf(987654, 'held', { status: 'received' }), false)
      })
    })
  })
}

function outbound (fields: Partial<NewOutboundMail> & Pick<NewOutboundMail, 'ticket_id' | 'message_id'>): NewOutboundMail {
  return { kind: 'reply', comment_id: null, user_id: null, author_id: null, recipient: 'owner@example.com', subject: 'Re: A ticket', unsubscribe_token: null, ...fields }
}

function inbound (fields: Partial<NewInboundMail> & Pick<NewInboundMail, 'dedupe_key'>): NewInboundMail {
  return { message_id: fields.dedupe_key, sender: 'ann@example.com', recipient: 'support@example.com', subject: 'Help', raw: Buffer.from('raw'), ...fields }
}
