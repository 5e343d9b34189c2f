import { agentList, categoryList, Role } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import { notificationSettingsRoutes } from '../people.js'
import { listQueryFrom, pagedResponse, viewQueryFrom } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import {
  Agent, AgentCreate, AgentUpdate, Category, CategoryIdsBody, Data, IdParams, listQuerystring, Paged, Permissions, PermissionsPatch, presentAgent, presentCategory, responses, Success, viewQuerystring
} from '@helpdesk/shapes'

export function agentRoutes (app: HelpdeskApp, { helpdesk, avatar }: RouteContext): void {
  const tags = ['Agents']
  const agents = helpdesk.agents
  const present = (a: Parameters<typeof presentAgent>[0]) => presentAgent(a, avatar)

  app.get('/agents', {
    schema: { tags, summary: 'List agents and administrators', querystring: listQuerystring(agentList), response: responses({ 200: Paged(Agent) }) }
  }, async (request) => pagedResponse(request, await agents.list(actorOf(request), listQueryFrom(request, agentList)), present))

  app.get('/agents/:id', {
    schema: { tags, summary: 'View an agent', params: IdParams, querystring: viewQuerystring(agentList), response: responses({ 200: Data(Agent) }) }
  }, async (request) => ({ data: present(await agents.view(actorOf(request), request.params.id, viewQueryFrom(request, agentList))) }))

  app.post('/agents', {
    schema: { tags, summary: 'Create an agent', body: AgentCreate, response: responses({ 201: Data(Agent) }) }
  }, async (request, reply) => {
    const agent = await agents.create(actorOf(request), request.body, Role.Agent)
    return await reply.code(201).send({ data: present(agent) })
  })

  app.route({
    method: ['PATCH', 'POST', 'PUT'],
    url: '/agents/:id',
    schema: { tags, summary: 'Update an agent (partial)', params: IdParams, body: AgentUpdate, response: responses({ 200: Data(Agent) }) },
    handler: async (request) => ({ data: present(await agents.update(actorOf(request), request.params.id, request.body)) })
  })

  app.delete('/agents/:id', {
    schema: { tags, summary: 'Delete an agent', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await agents.delete(actorOf(request), request.params.id)
    return { success: true as const }
  })

  app.get('/agents/:id/permissions', {
    schema: { tags, summary: 'Permissions of an agent', params: IdParams, response: responses({ 200: Data(Permissions) }) }
  }, async (request) => ({ data: await agents.permissions(actorOf(request), request.params.id) }))

  app.route({
    method: ['PATCH', 'POST', 'PUT'],
    url: '/agents/:id/permissions',
    schema: { tags, summary: 'Change permissions of an agent', params: IdParams, body: PermissionsPatch, response: responses({ 200: Data(Permissions) }) },
    handler: async (request) => ({ data: await agents.updatePermissions(actorOf(request), request.params.id, request.body) })
  })

  notificationSettingsRoutes(app, '/agents', tags, 'an agent', agents)

  app.get('/agents/:id/categories', {
    schema: {
      tags,
      summary: 'Categories an agent is assigned to (paged, with the categories list\'s sorts, filters and includes)',
      params: IdParams,
      querystring: listQuerystring(categoryList),
      response: responses({ 200: Paged(Category) })
    }
  }, async (request) => pagedResponse(request, await agents.categoryPage(actorOf(request), request.params.id, listQueryFrom(request, categoryList)), presentCategory))

  app.put('/agents/:id/categories', {
    schema: { tags, summary: 'Set the categories of an agent (an empty list clears them)', params: IdParams, body: CategoryIdsBody, response: responses({ 200: Success }) }
  }, async (request) => {
    await agents.setCategories(actorOf(request), request.params.id, request.body.categories)
    return { success: true as const }
  })
}
