import type { FastifyRequest } from 'fastify'
import { commentList, type Comment as CommentEntity } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import { listQueryFrom, pagedResponse, viewQueryFrom } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import {
  Comment, CommentCreate, ConflictBody, CommentUpdate, Data, IdParams, listQuerystring, Paged, presentComment, responses, Success, TicketCommentsParams, viewQuerystring
} from '@helpdesk/shapes'

export function commentRoutes (app: HelpdeskApp, { helpdesk, avatar }: RouteContext): void {
  const tags = ['Comments']
  const comments = helpdesk.comments
  const present = (request: FastifyRequest) => (comment: CommentEntity) => presentComment(comment, avatar, request.actor)

  app.get('/tickets/:ticket_id/comments', {
    schema: {
      tags,
      summary: 'Comments of a ticket the caller may see',
      description: 'Customers see replies only, and private replies only on their own tickets.',
      params: TicketCommentsParams,
      querystring: listQuerystring(commentList),
      response: responses({ 200: Paged(Comment) })
    }
  }, async (request) => {
    const page = await comments.list(actorOf(request), request.params.ticket_id, listQueryFrom(request, commentList))
    return pagedResponse(request, page, present(request))
  })

  app.post('/tickets/:ticket_id/comments', {
    schema: {
      tags,
      summary: 'Reply to a ticket or add a note',
      description: 'Moves the ticket: staff reply on Open -> Pending, customer reply on Pending/Closed -> Open, `close` -> Closed. With `if_no_comments_after`, 409 when someone else commented since (collision detection).',
      params: TicketCommentsParams,
      body: CommentCreate,
      response: responses({ 201: Data(Comment), 409: ConflictBody })
    }
  }, async (request, reply) => {
    const comment = await comments.create(actorOf(request), request.params.ticket_id, request.body)
    return await reply.code(201).send({ data: present(request)(comment) })
  })

  app.get('/comments/:id', {
    schema: { tags, summary: 'View a comment', params: IdParams, querystring: viewQuerystring(commentList), response: responses({ 200: Data(Comment) }) }
  }, async (request) => ({ data: present(request)(await comments.view(actorOf(request), request.params.id, viewQueryFrom(request, commentList))) }))

  app.patch('/comments/:id', {
    schema: { tags, summary: 'Change a comment\'s body (its author, administrators)', params: IdParams, body: CommentUpdate, response: responses({ 200: Data(Comment) }) }
  }, async (request) => ({ data: present(request)(await comments.update(actorOf(request), request.params.id, request.body.body)) }))

  app.delete('/comments/:id', {
    schema: { tags, summary: 'Delete a comment with its attachments (its author, administrators)', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await comments.delete(actorOf(request), request.params.id)
    return { success: true as const }
  })

  app.put('/comments/:id/privacy', {
    schema: { tags, summary: 'Make a comment public', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await comments.setPrivate(actorOf(request), request.params.id, false)
    return { success: true as const }
  })

  app.delete('/comments/:id/privacy', {
    schema: { tags, summary: 'Make a comment private', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await comments.setPrivate(actorOf(request), request.params.id, true)
    return { success: true as const }
  })
}
