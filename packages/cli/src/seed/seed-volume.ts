import type { Helpdesk } from '@helpdesk/core'
import { CliError } from '../config.js'
import { VolumeData, type SeedRefs, type VolumePlan } from './seed-data.js'
import { CLI_ACTOR } from '../cli-actor.js'

/** Every generated customer and agent can log in with this password. */
export const VOLUME_PASSWORD = 'seed-password'

/** Records written per transaction: large enough to amortise commits, small enough to keep memory flat. */
const CUSTOMER_BATCH = 5000
const TICKET_BATCH = 2000

export interface VolumeSummary {
  categories: number
  agents: number
  customers: number
  tickets: number
  comments: number
  seconds: number
  /** Ids of the generated categories, for assigning the demo agent. */
  categoryIds: number[]
}

/**
 * Writes a plan's categories, agents, customers and tickets (with comments)
 * through the services' bulk paths: customers share one password hash (each
 * with its `CustomerCreated`, their events appended together), and
 * tickets go through `tickets.importMany` (validated, sanitised, indexed for
 * search), a batch per transaction. `onProgress` hears (records written, total).
 */
export async function seedVolume (helpdesk: Helpdesk, plan: VolumePlan, onProgress: (done: number, total: number) => void): Promise<VolumeSummary> {
  const started = performance.now()
  const data = new VolumeData(plan)
  const total = plan.agents + plan.customers + plan.tickets
  let done = 0
  const progress = (n: number): void => { done += n; onProgress(done, total) }

  const categoryIds = await ensureCategories(helpdesk, data.categoryNames())
  const agentsByCategory: number[][] = categoryIds.map(() => [])
  const hash = await helpdesk.maintenance.hashPassword(VOLUME_PASSWORD)
  // Drawn in the generator's order (each agent, then their categories): the same seed writes the same data.
  const agents = Array.from({ length: plan.agents }, (_, i) => ({ person: data.agent(i), categories: data.agentCategories(i) }))
  const first = agents[0]?.person
  if (first !== undefined && await helpdesk.auth.findUser({ email: first.email }) !== null) {
    throw new CliError(`this database already holds the data of --seed ${plan.seed} (${first.email} exists): use another --seed or a fresh database`)
  }
  // Staff are few: created together with the shared hash, then each given their categories.
  const agentIds = await helpdesk.agents.createMany(CLI_ACTOR, agents.map((a) => a.person), hash)
  for (const [i, agentId] of agentIds.entries()) {
    const categories = agents[i]!.categories
    await helpdesk.agents.setCategories(CLI_ACTOR, agentId, categories.map((c) => categoryIds[c] as number))
    for (const c of categories) agentsByCategory[c]?.push(agentId)
    progress(1)
  }

  const customerIds: number[] = []
  for (let start = 0; start < plan.customers; start += CUSTOMER_BATCH) {
    const count = Math.min(CUSTOMER_BATCH, plan.customers - start)
    const people = Array.from({ length: count }, (_, k) => data.customer(start + k))
    customerIds.push(...await helpdesk.customers.createMany(CLI_ACTOR, people, hash))
    progress(count)
  }

  const refs: SeedRefs = { customerIds, categoryIds, agentsByCategory }
  let comments = 0
  for (let start = 0; start < plan.tickets; start += TICKET_BATCH) {
    const count = Math.min(TICKET_BATCH, plan.tickets - start)
    const items = Array.from({ length: count }, (_, k) => data.ticket(start + k, refs))
    for (const item of items) comments += item.comments?.length ?? 0
    await helpdesk.tickets.importMany(items)
    progress(count)
  }
  if (plan.tickets > 0) await helpdesk.maintenance.optimize()
  return {
    categories: categoryIds.length,
    agents: plan.agents,
    customers: plan.customers,
    tickets: plan.tickets,
    comments,
    seconds: (performance.now() - started) / 1000,
    categoryIds
  }
}

/** The categories with these names: existing ones are reused (the demo seed's overlap), missing ones created. */
async function ensureCategories (helpdesk: Helpdesk, names: string[]): Promise<number[]> {
  const existing = await helpdesk.categories.list(CLI_ACTOR, { include: [], sort: [], partial: {}, exact: {}, page: 1, perPage: 100 })
  const byName = new Map(existing.items.map((c) => [c.name, c.id]))
  const ids: number[] = []
  for (const name of names) ids.push(byName.get(name) ?? (await helpdesk.categories.create(CLI_ACTOR, { name })).id)
  return ids
}
