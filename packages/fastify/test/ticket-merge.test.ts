import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { TicketEventType } from '@helpdesk/core'
import { buildApp, eachDialect, manualClock, type TestApp } from './helpers.js'
import { expectStatus, expectValidation } from './http-assertions.js'
import { mailDesk, SUPPORT } from './mail-fixtures.js'
import { desk, postComment, postTicket, recordEvents, settle, uploadId, type Desk } from './ticket-fixtures.js'

async function merge (h: TestApp, token: string, source: number, target: number) {
  return await h.inject({ method: 'POST', url: `/api/v1/tickets/${source}/merge`, token, payload: { target_id: target } })
}

async function ticket (h: TestApp, token: string, id: number): Promise<any> {
  return expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${id}?include=attachments`, token }), 200).data
}

async function comments (h: TestApp, token: string, id: number): Promise<any[]> {
  return expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${id}/comments?per_page=100&include=attachments`, token }), 200).data
}

async function history (h: TestApp, token: string, id: number): Promise<any[]> {
  return expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${id}/history?per_page=100`, token }), 200).data
}

async function field (h: TestApp, d: Desk, title: string): Promise<number> {
  return expectStatus(await h.inject({ method: 'POST', url: '/api/v1/fields', token: d.admin.token, payload: { title, type: 'text', categories: [d.billing] } }), 201).data.id
}

async function count (h: TestApp, table: string): Promise<number> {
  const row = await h.store.knex(table).count({ n: '*' }).first() as { n: number | string }
  return Number(row.n)
}

eachDialect((dialect) => {
  describe(`merging tickets (${dialect})`, () => {
    it('moves comments, attachments, participants and the answers the target lacks; closes the source; records both histories; notifies the assignee', async (t) => {
      const clock = manualClock()
      const h = await buildApp(t, dialect, { clock })
      const d = await desk(h)
      const events = recordEvents(h)
      const color = await field(h, d, 'Color')
      const size = await field(h, d, 'Size')
      const bodyFile = await uploadId(h, d.alice.token)
      const source = await postTicket(h, d.alice.token, { category: d.billing, title: 'Printer', body: 'It jams.', attachments: [bodyFile], fields: { [color]: 'red', [size]: 'L' } })
      const target = await postTicket(h, d.alice.token, { category: d.billing, title: 'Printer again', fields: { [color]: 'blue' } })
      expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/tickets/${target.id}/agents`, token: d.admin.token, payload: { agent: d.agent.user.id } }), 200)
      clock.advance(60_000)
      const replyFile = await uploadId(h, d.alice.token)
      const reply = await postComment(h, d.alice.token, source.id, { body: 'Still jams.', attachments: [replyFile] })
      const note = await postComment(h, d.admin.token, source.id, { body: 'Internal.', type: 2 })
      const carol = await h.user('customer')
      await h.store.mail.addParticipant(source.id, carol.user.id)

      const merged = expectStatus(await merge(h, d.admin.token, source.id, target.id), 200).data
      assert.equal(merged.id, target.id)
      assert.deepEqual(merged.additional.fields, { [color]: 'blue', [size]: 'L' }, 'an answer the target had stays; a missing one comes over')

      const after = await ticket(h, d.admin.token, source.id)
      assert.equal(after.status, 3)
      assert.equal(after.merged_into_id, target.id)
      assert.deepEqual(await comments(h, d.admin.token, source.id), [])
      const moved = await comments(h, d.admin.token, target.id)
      assert.deepEqual(moved.map((c) => c.preview), ['It jams.', 'Still jams.', 'Internal.'], 'the source\'s body first (at its time), then its comments')
      assert.deepEqual(moved[0].attachments.map((a: any) => a.id), [bodyFile])
      assert.deepEqual(moved.find((c) => c.id === reply.id).attachments.map((a: any) => a.id), [replyFile])
      assert.equal(moved.find((c) => c.id === note.id).type, 2)
      assert.deepEqual(await h.store.mail.participantIds(target.id), [carol.user.id])
      // The files follow their comments: the owner still downloads them through the target.
      expectStatus(await h.inject({ method: 'GET', url: `/api/v1/attachments/${replyFile}`, token: d.alice.token }), 200)

      const sourceHistory = await history(h, d.admin.token, source.id)
      assert.ok(sourceHistory.some((e) => e.field === 'merged_into' && e.new_value === target.id && e.actor.user_id === d.admin.user.id))
      assert.ok(sourceHistory.some((e) => e.field === 'status' && e.new_value === 3))
      const targetHistory = await history(h, d.admin.token, target.id)
      assert.ok(targetHistory.some((e) => e.field === 'merged_from' && e.new_value.id === source.id && e.new_value.comments === 2))
      assert.ok(targetHistory.some((e) => e.field === `fields.${size}` && e.new_value === 'L'))
      // The owner sees where their ticket went, in its history.
      assert.ok((await history(h, d.alice.token, source.id)).some((e) => e.field === 'merged_into'))

      const notes = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/notifications?filter[type]=Tickets.TicketMerged', token: d.agent.token }), 200).data
      assert.equal(notes.length, 1)
      assert.deepEqual(notes[0].data.merge, { source: { id: source.id, title: 'Printer' }, comments: 2 })
      await settle()
      const mergedEvent = events.find((e) => e.type === TicketEventType.TicketMerged) as any
      assert.equal(mergedEvent.ticket.id, target.id)
      assert.equal(mergedEvent.merge.source.id, source.id)
      assert.ok(events.some((e) => e.type === TicketEventType.TicketUpdated && (e as any).ticket.id === source.id && (e as any).changes.includes('merged_into_id')))
    })

    it('never shows a customer what they could not see before: notes stay notes, a private ticket\'s replies stay private in a public target', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const source = await postTicket(h, d.alice.token, { category: d.billing, private: true })
      const target = await postTicket(h, d.alice.token, { category: d.billing, private: false })
      await postComment(h, d.admin.token, source.id, { body: 'Staff reply on the private ticket.' })
      await postComment(h, d.admin.token, source.id, { body: 'A note.', type: 2 })
      expectStatus(await merge(h, d.admin.token, source.id, target.id), 200)
      const bobSees = await comments(h, d.bob.token, target.id)
      assert.deepEqual(bobSees, [], 'another customer reading the public target sees none of the private ticket\'s conversation')
      const aliceSees = (await comments(h, d.alice.token, target.id)).map((c) => c.preview).sort()
      assert.deepEqual(aliceSees, ['Please help.', 'Staff reply on the private ticket.'], 'the owner sees her replies, never the note')
    })

    it('refuses another customer\'s ticket, itself, a merged ticket and chains with 422; customers 403; a target the agent cannot see 422', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const a = (await postTicket(h, d.alice.token, { category: d.billing })).id
      const b = (await postTicket(h, d.alice.token, { category: d.billing })).id
      const c = (await postTicket(h, d.alice.token, { category: d.billing })).id
      const sales = (await postTicket(h, d.alice.token, { category: d.sales })).id
      const bobs = (await postTicket(h, d.bob.token, { category: d.billing })).id
      const refused = async (source: number, target: number, key: string, pattern: RegExp): Promise<void> => {
        const body = expectStatus(await merge(h, d.admin.token, source, target), 422)
        assert.match(body.errors[key][0], pattern)
      }
      await refused(a, bobs, 'target_id', /another customer/)
      await refused(a, a, 'target_id', /itself/)
      await refused(a, 999999, 'target_id', /invalid/)
      expectStatus(await merge(h, d.alice.token, a, b), 403)
      expectStatus(await merge(h, d.bob.token, a, b), 404)
      expectStatus(await merge(h, d.agent.token, a, sales), 422)
      expectStatus(await merge(h, d.admin.token, a, b), 200)
      await refused(a, c, 'id', /merged into #/)
      await refused(c, a, 'target_id', new RegExp(`merge into #${b} instead`))
      expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${a}/merge`, token: d.admin.token, payload: {} }), 422)
    })

    it('leaves an answer to a question the target\'s category does not ask with the source', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const color = await field(h, d, 'Color')
      const source = (await postTicket(h, d.alice.token, { category: d.billing, fields: { [color]: 'red' } })).id
      const target = (await postTicket(h, d.alice.token, { category: d.sales })).id
      const merged = expectStatus(await merge(h, d.admin.token, source, target), 200).data
      assert.deepEqual(merged.additional.fields, {})
      assert.deepEqual((await ticket(h, d.admin.token, source)).additional.fields, { [color]: 'red' })
    })

    it('reopens a closed target; replies to the source by API land on the target', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const source = (await postTicket(h, d.alice.token, { category: d.billing })).id
      const target = (await postTicket(h, d.alice.token, { category: d.billing })).id
      await postComment(h, d.alice.token, target, { body: 'Done.', close: true })
      assert.equal((await ticket(h, d.admin.token, target)).status, 3)
      expectStatus(await merge(h, d.admin.token, source, target), 200)
      const reopened = await ticket(h, d.admin.token, target)
      assert.equal(reopened.status, 1)
      assert.ok((await history(h, d.admin.token, target)).some((e) => e.field === 'status' && e.old_value === 3 && e.new_value === 1))
      const late = await postComment(h, d.alice.token, source, { body: 'One more thing.' })
      assert.equal(late.ticket_id, target)
      assert.ok((await comments(h, d.alice.token, target)).some((c) => c.id === late.id))
    })

    it('splits chosen comments into a new ticket of the same customer, recorded in both histories; merging it back undoes the split', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const original = await postTicket(h, d.alice.token, { category: d.billing, title: 'Two problems' })
      const first = await postComment(h, d.alice.token, original.id, { body: 'Problem one.' })
      const second = await postComment(h, d.alice.token, original.id, { body: 'Problem two.' })
      const note = await postComment(h, d.admin.token, original.id, { body: 'About two.', type: 2 })
      const bad = await h.inject({ method: 'POST', url: `/api/v1/tickets/${original.id}/split`, token: d.admin.token, payload: { comment_ids: [second.id, 999999] } })
      assert.deepEqual(Object.keys(expectStatus(bad, 422).errors), ['comment_ids.1'])
      expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${original.id}/split`, token: d.alice.token, payload: { comment_ids: [second.id] } }), 403)

      const split = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${original.id}/split`, token: d.admin.token, payload: { comment_ids: [second.id, note.id] } }), 201).data
      assert.equal(split.user_id, d.alice.user.id)
      assert.equal(split.title, `Two problems (split from #${original.id})`)
      assert.deepEqual((await comments(h, d.admin.token, split.id)).map((c) => c.id), [second.id, note.id])
      assert.deepEqual((await comments(h, d.admin.token, original.id)).map((c) => c.id), [first.id])
      assert.ok((await history(h, d.admin.token, original.id)).some((e) => e.field === 'split_to' && e.new_value.id === split.id))
      assert.ok((await history(h, d.admin.token, split.id)).some((e) => e.field === 'split_from' && e.new_value.id === original.id))
      assert.equal((await ticket(h, d.alice.token, split.id)).body, `<p>Split from ticket #${original.id}.</p>`)

      const named = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${original.id}/split`, token: d.admin.token, payload: { comment_ids: [first.id], subject: 'Problem one' } }), 201).data
      assert.equal(named.title, 'Problem one')
      expectStatus(await merge(h, d.admin.token, named.id, original.id), 200)
      assert.ok((await comments(h, d.admin.token, original.id)).some((c) => c.id === first.id))
    })

    it('undoes a merge within the grace period, restoring comments, privacy, participants and answers; refuses after it', async (t) => {
      const clock = manualClock(Date.parse('2030-01-01T00:00:00Z'))
      const h = await buildApp(t, dialect, { clock })
      const d = await desk(h)
      const size = await field(h, d, 'Size')
      const source = await postTicket(h, d.alice.token, { category: d.billing, private: true, fields: { [size]: 'L' } })
      const target = await postTicket(h, d.alice.token, { category: d.billing, private: false })
      await postComment(h, d.alice.token, target.id, { body: 'Closing.', close: true })
      const reply = await postComment(h, d.admin.token, source.id, { body: 'Public reply.' })
      const carol = await h.user('customer')
      await h.store.mail.addParticipant(source.id, carol.user.id)
      expectStatus(await merge(h, d.admin.token, source.id, target.id), 200)
      assert.equal((await comments(h, d.admin.token, target.id)).find((c) => c.id === reply.id).private, true)

      clock.advance(3_600_000)
      const restored = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${source.id}/unmerge`, token: d.admin.token }), 200).data
      assert.equal(restored.merged_into_id, null)
      assert.equal(restored.status, 2, "Pending again, as the staff reply had left it")
      assert.deepEqual((await comments(h, d.admin.token, source.id)).map((c) => [c.id, c.private]), [[reply.id, false]])
      assert.deepEqual((await comments(h, d.admin.token, target.id)).map((c) => c.preview), ['Closing.'], 'the body reply the merge added is gone')
      const back = await ticket(h, d.admin.token, target.id)
      assert.deepEqual(back.additional.fields, {})
      assert.equal(back.status, 3, 'the merge reopened it; undoing it closes it again')
      assert.deepEqual(await h.store.mail.participantIds(target.id), [])
      assert.ok((await history(h, d.admin.token, source.id)).some((e) => e.field === 'merged_into' && e.old_value === target.id && e.new_value === null))
      expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${source.id}/unmerge`, token: d.admin.token }), 422)

      expectStatus(await merge(h, d.admin.token, source.id, target.id), 200)
      clock.advance(25 * 3_600_000)
      const late = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${source.id}/unmerge`, token: d.admin.token }), 422)
      assert.match(late.errors.id[0], /older than 24 hours/)
      expectStatus(await h.inject({ method: 'PATCH', url: '/api/v1/settings', token: d.admin.token, payload: { 'tickets.merge_undo_hours': 48 } }), 200)
      expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${source.id}/unmerge`, token: d.admin.token }), 200)
    })

    it('writes nothing when the merge fails half-way', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const source = (await postTicket(h, d.alice.token, { category: d.billing })).id
      const target = (await postTicket(h, d.alice.token, { category: d.billing })).id
      await postComment(h, d.alice.token, source, { body: 'Moved or not.' })
      const before = { history: await count(h, 'ticket_history'), comments: await count(h, 'comments'), events: await count(h, 'event_log') }
      // The last step of a merge is announcing it; a recorder that fails there rolls everything back.
      h.helpdesk.events.record(async (_tx, event) => { if (event.type === TicketEventType.TicketMerged) throw new Error('announcing failed') })
      const failed = await merge(h, d.admin.token, source, target)
      assert.equal(failed.statusCode, 500)
      assert.equal((await ticket(h, d.admin.token, source)).merged_into_id, null)
      assert.equal((await comments(h, d.admin.token, source)).length, 1)
      assert.deepEqual({ history: await count(h, 'ticket_history'), comments: await count(h, 'comments'), events: await count(h, 'event_log') }, before)
      assert.equal(await count(h, 'ticket_merges'), 0)
    })
  })

  describe(`after a merge (${dialect})`, () => {
    const draftOf = async (h: TestApp, token: string, id: number): Promise<string | null> =>
      (expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets/${id}/draft`, token }), 200).data as { body: string } | null)?.body ?? null
    const putDraft = async (h: TestApp, token: string, id: number, body: string): Promise<void> => {
      expectStatus(await h.inject({ method: 'PUT', url: `/api/v1/tickets/${id}/draft`, token, payload: { body } }), 200)
    }

    it("a reply sent to the merged ticket takes that ticket's draft with it and leaves the author's draft on the target", async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const source = (await postTicket(h, d.alice.token, { category: d.billing })).id
      const target = (await postTicket(h, d.alice.token, { category: d.billing })).id
      await putDraft(h, d.agent.token, source, 'Written on the source.')
      await putDraft(h, d.agent.token, target, 'Unsent, on the target.')
      expectStatus(await merge(h, d.agent.token, source, target), 200)
      const sent = await postComment(h, d.agent.token, source, { body: 'Written on the source.' })
      assert.equal(sent.ticket_id, target)
      assert.equal(await draftOf(h, d.agent.token, source), null, 'the draft that was sent is gone (it cannot be sent twice)')
      assert.equal(await draftOf(h, d.agent.token, target), 'Unsent, on the target.', 'the other draft stays')
      // Sent on the target itself, the target's draft goes as before.
      await postComment(h, d.agent.token, target, { body: 'Now on the target.' })
      assert.equal(await draftOf(h, d.agent.token, target), null)
    })

    it('a merged ticket is changed only by undoing the merge: PATCH, bulk and macros answer 422; a no-op (bulk close) is fine', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const source = (await postTicket(h, d.alice.token, { category: d.billing })).id
      const target = (await postTicket(h, d.alice.token, { category: d.billing })).id
      const other = (await postTicket(h, d.alice.token, { category: d.billing })).id
      expectStatus(await merge(h, d.agent.token, source, target), 200)
      const refused = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${source}`, token: d.agent.token, payload: { status: 1 } }), 422)
      assert.equal(refused.errors.status[0], `Ticket #${source} was merged into #${target}: undo the merge instead.`)
      expectValidation(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${source}`, token: d.admin.token, payload: { priority: 'high' } }), 'priority')
      expectValidation(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${source}`, token: d.alice.token, payload: { title: 'Renamed' } }), 'title')
      expectValidation(await h.inject({ method: 'PUT', url: `/api/v1/tickets/${source}/privacy`, token: d.admin.token }), 'private')
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${source}`, token: d.agent.token, payload: { status: 3 } }), 200)

      const reopen = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/tickets/bulk', token: d.agent.token, payload: { ids: [source, other], action: { status: 1 } } }), 200).data
      assert.equal(reopen[0].status, 'error')
      assert.match(reopen[0].error.errors.status[0], /undo the merge instead/)
      assert.equal(reopen[1].status, 'ok', 'the other tickets go on')
      const tagged = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/tickets/bulk', token: d.agent.token, payload: { ids: [source], action: { tags: { add: ['x'] } } } }), 200).data
      assert.equal(tagged[0].status, 'error')
      const closed = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/tickets/bulk', token: d.agent.token, payload: { ids: [source, other], action: { close: true } } }), 200).data
      assert.deepEqual(closed.map((o: any) => o.status), ['ok', 'ok'], 'closing a merged (closed) ticket changes nothing')

      const macro = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/macros', token: d.admin.token, payload: { name: 'Reopen', actions: [{ type: 'set_status', value: 1 }] } }), 201).data
      expectValidation(await h.inject({ method: 'POST', url: `/api/v1/tickets/${source}/macros/${macro.id}`, token: d.admin.token }), 'id')

      const after = await ticket(h, d.admin.token, source)
      assert.deepEqual([after.status, after.merged_into_id, after.priority, after.private], [3, target, 'normal', true])
      assert.ok(!(await history(h, d.admin.token, source)).some((e) => e.field === 'status' && e.new_value === 1))
      // Undone, it is a ticket like any other again.
      expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${source}/unmerge`, token: d.agent.token }), 200)
      expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${source}`, token: d.agent.token, payload: { status: 1 } }), 200)
    })

    it('a merged ticket keeps its assignee: assigning and unassigning, single or bulk, answer 422 naming the target', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const source = (await postTicket(h, d.alice.token, { category: d.billing })).id
      const target = (await postTicket(h, d.alice.token, { category: d.billing })).id
      const other = (await postTicket(h, d.alice.token, { category: d.billing })).id
      const assignUrl = (id: number) => `/api/v1/tickets/${id}/agents`
      expectStatus(await h.inject({ method: 'PUT', url: assignUrl(source), token: d.admin.token, payload: { agent: d.agent.user.id } }), 200)
      expectStatus(await merge(h, d.agent.token, source, target), 200)
      const message = `Ticket #${source} was merged into #${target}: undo the merge instead.`
      const assignments = (await history(h, d.admin.token, source)).filter((e) => e.field === 'assignee').length
      assert.equal(assignments, 1)

      const assigned = expectValidation(await h.inject({ method: 'PUT', url: assignUrl(source), token: d.admin.token, payload: { agent: d.admin.user.id } }), 'agent')
      assert.equal(assigned.agent?.[0], message)
      const unassigned = expectValidation(await h.inject({ method: 'DELETE', url: assignUrl(source), token: d.admin.token }), 'agent')
      assert.equal(unassigned.agent?.[0], message)
      // Asking for the assignee it has already changes nothing and is fine, as a bulk "close" of a merged ticket is.
      expectStatus(await h.inject({ method: 'PUT', url: assignUrl(source), token: d.admin.token, payload: { agent: d.agent.user.id } }), 200)

      const bulk = async (assigneeId: number | null) => expectStatus(await h.inject({
        method: 'POST', url: '/api/v1/tickets/bulk', token: d.admin.token, payload: { ids: [source, other], action: { assign: { assignee_id: assigneeId } } }
      }), 200).data
      const bulkAssigned = await bulk(d.admin.user.id)
      assert.deepEqual(bulkAssigned.map((o: any) => o.status), ['error', 'ok'], 'the other tickets go on')
      assert.equal(bulkAssigned[0].error.errors['action.assign.assignee_id'][0], message)
      const bulkUnassigned = await bulk(null)
      assert.deepEqual(bulkUnassigned.map((o: any) => o.status), ['error', 'ok'])
      assert.equal(bulkUnassigned[0].error.errors['action.assign.assignee_id'][0], message)

      assert.equal((await h.store.tickets.findById(source))?.assigned_agent_id, d.agent.user.id, 'the assignee never changed')
      assert.equal((await history(h, d.admin.token, source)).filter((e) => e.field === 'assignee').length, assignments, 'no assignment recorded after the merge')
      // Undone, it is assigned like any other ticket again.
      expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${source}/unmerge`, token: d.agent.token }), 200)
      expectStatus(await h.inject({ method: 'PUT', url: assignUrl(source), token: d.admin.token, payload: { agent: d.admin.user.id } }), 200)
      expectStatus(await h.inject({ method: 'DELETE', url: assignUrl(source), token: d.admin.token }), 200)
      assert.equal((await h.store.tickets.findById(source))?.assigned_agent_id, null)
    })

    it('a reply written while the ticket is being merged lands on the target, never on the closed source', { skip: dialect !== 'postgres' && 'needs a second connection holding a row lock' }, async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const source = (await postTicket(h, d.alice.token, { category: d.billing })).id
      const target = (await postTicket(h, d.alice.token, { category: d.billing })).id
      const knex = h.store.knex
      // A merge in flight: it holds the source's row, then closes it into the target and commits.
      const merging = await knex.transaction()
      let reply: Promise<Awaited<ReturnType<TestApp['inject']>>>
      try {
        await merging('tickets').select('id').where('id', source).forUpdate()
        // Started now (an injected request runs once awaited): it reads the ticket, unmerged, then waits for the row.
        reply = Promise.resolve(h.inject({ method: 'POST', url: `/api/v1/tickets/${source}/comments`, token: d.alice.token, payload: { body: 'Written meanwhile.', type: 1, private: false } }))
        for (let waited = 0; ; waited += 20) {
          const row = await knex.raw("select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'") as { rows: Array<{ n: string }> }
          if (Number(row.rows[0]?.n) > 0) break
          assert.ok(waited < 10_000, 'the reply never waited for the merge')
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
        await merging('tickets').where('id', source).update({ merged_into_id: target, status: 3 })
        await merging.commit()
      } finally {
        if (!merging.isCompleted()) await merging.rollback()
      }
      const written = expectStatus(await reply, 201).data
      assert.equal(written.ticket_id, target)
      assert.deepEqual(await comments(h, d.admin.token, source), [])
    })

    it('automations and triggers leave a merged ticket alone', async (t) => {
      const clock = manualClock()
      const h = await buildApp(t, dialect, { clock })
      const d = await desk(h)
      const source = (await postTicket(h, d.alice.token, { category: d.billing })).id
      const target = (await postTicket(h, d.alice.token, { category: d.billing })).id
      expectStatus(await merge(h, d.agent.token, source, target), 200)
      expectStatus(await h.inject({
        method: 'POST', url: '/api/v1/automations', token: d.admin.token,
        payload: { name: 'Reopen stale', time_condition: { anchor: 'created', hours: 1 }, conditions: { all: [] }, actions: [{ type: 'set_status', value: 1 }, { type: 'add_tags', value: ['stale'] }] }
      }), 201)
      clock.advance(2 * 3_600_000)
      const run = await h.helpdesk.automations.run()
      assert.deepEqual(run.fired.flatMap((f) => f.ticket_ids), [target], 'the target fires; the merged source is not a candidate')
      const after = await ticket(h, d.admin.token, source)
      assert.deepEqual([after.status, after.merged_into_id], [3, target])
    })

    it('refuses to undo a merge whose comments were split off the target, and changes nothing', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const source = (await postTicket(h, d.alice.token, { category: d.billing, body: 'Body of the source.' })).id
      const reply = await postComment(h, d.alice.token, source, { body: 'Reply on the source.' })
      const target = (await postTicket(h, d.alice.token, { category: d.billing })).id
      expectStatus(await merge(h, d.agent.token, source, target), 200)
      const body = (await comments(h, d.admin.token, target)).find((c) => c.preview === 'Body of the source.')
      const split = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${target}/split`, token: d.agent.token, payload: { comment_ids: [body.id, reply.id] } }), 201).data
      const before = { comments: await count(h, 'comments'), history: await count(h, 'ticket_history') }

      const refused = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${source}/unmerge`, token: d.agent.token }), 422)
      assert.match(refused.errors.id[0], /comments have moved off #\d+ since the merge \(split or merged on\); undo that first/)
      assert.deepEqual({ comments: await count(h, 'comments'), history: await count(h, 'ticket_history') }, before)
      assert.deepEqual((await comments(h, d.admin.token, split.id)).map((c) => c.id).sort(), [body.id, reply.id].sort(), 'the body comment is not deleted where it went')
      const still = await ticket(h, d.admin.token, source)
      assert.deepEqual([still.status, still.merged_into_id], [3, target])

      // Merging the split ticket back brings them home; then the merge can be undone.
      expectStatus(await merge(h, d.agent.token, split.id, target), 200)
      expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${source}/unmerge`, token: d.agent.token }), 200)
      assert.deepEqual((await comments(h, d.admin.token, source)).map((c) => c.id), [reply.id])
      assert.ok(!(await comments(h, d.admin.token, target)).some((c) => c.id === body.id), 'the body reply is removed from the target')
    })

    it('undoes a chain A -> B -> C only from its end: A first is 422 and deletes nothing; B, then A, works', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const a = (await postTicket(h, d.alice.token, { category: d.billing, body: 'Body A.' })).id
      const onA = await postComment(h, d.alice.token, a, { body: 'Reply on A.' })
      const b = (await postTicket(h, d.alice.token, { category: d.billing, body: 'Body B.' })).id
      const c = (await postTicket(h, d.alice.token, { category: d.billing, body: 'Body C.' })).id
      expectStatus(await merge(h, d.admin.token, a, b), 200)
      expectStatus(await merge(h, d.admin.token, b, c), 200)
      const onC = (await comments(h, d.admin.token, c)).map((x) => x.preview)
      const before = await count(h, 'comments')

      const refused = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${a}/unmerge`, token: d.admin.token }), 422)
      assert.match(refused.errors.id[0], new RegExp(`#${b} was merged into #${c} since; undo that first`))
      assert.equal(await count(h, 'comments'), before)
      assert.deepEqual((await comments(h, d.admin.token, c)).map((x) => x.preview), onC)
      assert.equal((await ticket(h, d.admin.token, a)).merged_into_id, b)

      expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${b}/unmerge`, token: d.admin.token }), 200)
      expectStatus(await h.inject({ method: 'POST', url: `/api/v1/tickets/${a}/unmerge`, token: d.admin.token }), 200)
      assert.deepEqual((await comments(h, d.admin.token, a)).map((x) => x.id), [onA.id])
      assert.deepEqual((await comments(h, d.admin.token, b)).map((x) => x.preview), [])
      assert.deepEqual((await comments(h, d.admin.token, c)).map((x) => x.preview), [])
    })

    it('the built-in "Recently closed" view and its count leave merged tickets out; filter[merged] picks either kind', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const source = (await postTicket(h, d.alice.token, { category: d.billing })).id
      const target = (await postTicket(h, d.alice.token, { category: d.billing })).id
      const closed = (await postTicket(h, d.alice.token, { category: d.billing })).id
      await postComment(h, d.agent.token, closed, { body: 'Done.', close: true })
      expectStatus(await merge(h, d.agent.token, source, target), 200)
      const views = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/views?include=count', token: d.agent.token }), 200).data
      const recent = views.find((v: any) => v.key === 'closed')
      assert.equal(recent.count, 1)
      const query = new URLSearchParams(Object.entries(recent.filters as Record<string, string>).map(([k, v]) => [`filter[${k}]`, v]))
      const listed = expectStatus(await h.inject({ method: 'GET', url: `/api/v1/tickets?${query.toString()}`, token: d.agent.token }), 200).data
      assert.deepEqual(listed.map((x: any) => x.id), [closed])
      const merged = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/tickets?filter[merged]=1', token: d.agent.token }), 200).data
      assert.deepEqual(merged.map((x: any) => x.id), [source])
      expectStatus(await h.inject({ method: 'GET', url: '/api/v1/tickets?filter[merged]=maybe', token: d.agent.token }), 422)
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/views', token: d.agent.token, payload: { name: 'Bad', filters: { merged: '2' } } }), 'filters.merged')
      const open = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/tickets?filter[status]=1,2', token: d.agent.token }), 200).data
      assert.deepEqual(open.map((x: any) => x.id), [target], 'open or pending: the target only')
    })
  })

  describe(`merged tickets and mail (${dialect})`, () => {
    it('a mail reply to the merged ticket ([#id] subject tag from its owner) lands on the target', async (t) => {
      const d = await mailDesk(t, dialect)
      const source = (await postTicket(d.h, d.alice.token, { category: d.billing, title: 'First' })).id
      const target = (await postTicket(d.h, d.alice.token, { category: d.billing, title: 'Second' })).id
      expectStatus(await merge(d.h, d.admin.token, source, target), 200)
      const result = await d.post({ from: d.alice.user.email, to: SUPPORT, subject: `Re: [#${source}] First`, text: 'By mail.' })
      assert.equal(result.status, 'replied', JSON.stringify(result))
      assert.equal(result.ticket_id, target)
      assert.ok((await comments(d.h, d.admin.token, target)).some((c) => c.body === '<p>By mail.</p>'))
    })
  })
})
