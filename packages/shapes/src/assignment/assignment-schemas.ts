import { Type } from '@sinclair/typebox'
import { ASSIGNMENT_MODES } from '@helpdesk/core'

const Mode = Type.Union(ASSIGNMENT_MODES.map((mode) => Type.Literal(mode)), { description: 'manual: by hand; round_robin: the available agent whose last rule assignment is the oldest; least_open: the available agent with the fewest open tickets.' })

export const CategoryAssignment = Type.Object({
  category_id: Type.Integer(),
  mode: Mode
}, { description: 'How new tickets of the category get an assignee, and who takes the tickets of an agent who goes away.' })

export const CategoryAssignmentUpdate = Type.Object({ mode: Mode }, { examples: [{ mode: 'round_robin' }] })

export const AgentAvailability = Type.Object({
  user_id: Type.Integer(),
  available: Type.Boolean({ description: 'False: away; assignment rules skip the agent.' }),
  reassigned: Type.Optional(Type.Array(Type.Integer(), { description: 'Tickets handed to other agents by their category\'s rule when the agent went away.' }))
})

export const AgentAvailabilityUpdate = Type.Object({ available: Type.Boolean() }, { examples: [{ available: false }] })
