import { Command } from 'commander'
import type { Category, Helpdesk, User } from '@helpdesk/core'
import { CliError } from '../config-file.js'
import type { CliIo } from '../io.js'
import type { DemoContentSummary } from '../seed/demo-content.js'
import type { VolumePlan } from '../seed/seed-data.js'
import type { VolumeSummary } from '../seed/seed-volume.js'
import { CLI_ACTOR } from '../cli-actor.js'

/** The demo accounts `helpdesk seed` creates (printed, and used by the README's curl tour). */
export const DEMO_ACCOUNTS = [
  { role: 'admin', email: 'admin@example.com', password: 'admin-password', first_name: 'Ada', last_name: 'Admin' },
  { role: 'agent', email: 'agent@example.com', password: 'agent-password', first_name: 'Alan', last_name: 'Agent' },
  { role: 'customer', email: 'customer@example.com', password: 'customer-password', first_name: 'Cleo', last_name: 'Customer' }
] as const

export const DEMO_CATEGORIES = ['General', 'Billing', 'Technical support']

/** The demo agent's permissions: those of a real agent (not `view_all_tickets` or `delete_tickets`, a lead's). */
export const DEMO_AGENT_PERMISSIONS = { assign_tickets: true, manage_customers: true, manage_articles: true }

export interface SeedOptions {
  database?: string
  json?: boolean
  tickets?: string
  customers?: string
  commentsPerTicket?: string
  agents?: string
  categories?: string
  seed?: string
  years?: string
}

type DemoAccount = { role: 'admin' | 'agent' | 'customer', email: string, password: string, first_name: string, last_name: string }

async function ensureUser (helpdesk: Helpdesk, account: DemoAccount): Promise<{ user: User, created: boolean }> {
  const existing = await helpdesk.auth.findUser({ email: account.email })
  if (existing !== null) return { user: existing, created: false }
  const { createUserOfRole, roleFromType } = await import('@helpdesk/core')
  const input = { first_name: account.first_name, last_name: account.last_name, email: account.email, password: account.password }
  const user = await createUserOfRole(helpdesk, roleFromType(account.role), input)
  return { user, created: true }
}

function count (name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new CliError(`--${name} must be an integer from ${min} to ${max}, got "${value}"`)
  }
  return Number(value)
}

/** The volume plan of the flags, or null when no volume flag was given (demo data only). */
export function volumePlan (options: SeedOptions): VolumePlan | null {
  const flags = [options.tickets, options.customers, options.commentsPerTicket, options.agents, options.categories, options.seed, options.years]
  if (flags.every((f) => f === undefined)) return null
  const tickets = count('tickets', options.tickets, 0, 0, 50_000_000)
  return {
    tickets,
    customers: count('customers', options.customers, Math.max(1, Math.ceil(tickets / 5)), 1, 10_000_000),
    commentsPerTicket: count('comments-per-ticket', options.commentsPerTicket, 2, 0, 50),
    agents: count('agents', options.agents, 20, 1, 1000),
    categories: count('categories', options.categories, 8, 1, 100),
    seed: count('seed', options.seed, 1, 0, 2 ** 31 - 1),
    years: count('years', options.years, 3, 1, 30)
  }
}

/**
 * Demo data (idempotent): an administrator, an agent, customers, categories,
 * and, without volume flags, a dozen tickets with their replies, notes, an
 * attachment, custom fields, canned responses and knowledge-base articles
 * (`seedDemoContent`). With volume flags it generates realistic tickets,
 * customers, agents and comments from a seeded PRNG instead. The demo agent
 * is assigned to every category, with a real agent's permissions
 * (`DEMO_AGENT_PERMISSIONS`).
 */
export async function seed (options: SeedOptions, io: CliIo): Promise<void> {
  const plan = volumePlan(options)
  const [{ loadConfig }, { withHelpdesk }, { progressBar }, { DEMO_CUSTOMERS, seedDemoContent }, { helpdeskFor }, { seedVolume, VOLUME_PASSWORD }] = await Promise.all([
    import('../config.js'), import('../open-store.js'), import('../progress.js'), import('../seed/demo-content.js'), import('../server.js'), import('../seed/seed-volume.js')
  ])
  const config = loadConfig({ database: options.database })
  // Attachments go where `helpdesk serve` (same configuration) looks for them.
  await withHelpdesk(config.databaseUrl, async (helpdesk) => {
    const users = []
    for (const account of DEMO_ACCOUNTS) users.push({ account, ...await ensureUser(helpdesk, account) })
    const existing = await helpdesk.categories.list(CLI_ACTOR, { include: [], sort: [], partial: {}, exact: {}, page: 1, perPage: 100 })
    const categories: Category[] = existing.items.filter((c) => DEMO_CATEGORIES.includes(c.name))
    for (const name of DEMO_CATEGORIES) {
      if (!categories.some((c) => c.name === name)) categories.push(await helpdesk.categories.create(CLI_ACTOR, { name }))
    }
    const categoryIds = categories.map((c) => c.id)
    let demo: DemoContentSummary | null = null
    if (plan === null) {
      const password = DEMO_ACCOUNTS[2].password
      const customers = [users[2]!.user]
      for (const person of DEMO_CUSTOMERS) customers.push((await ensureUser(helpdesk, { role: 'customer', password, ...person })).user)
      // The agent answers in every demo category.
      await helpdesk.agents.setCategories(CLI_ACTOR, users[1]!.user.id, categoryIds)
      demo = await seedDemoContent(helpdesk, { admin: users[0]!.user, agent: users[1]!.user, customers, password }, categories)
    }
    let volume: VolumeSummary | null = null
    if (plan !== null) {
      const bar = progressBar('Seeding', options.json !== true)
      try {
        volume = await seedVolume(helpdesk, plan, bar.update)
      } finally {
        bar.stop()
      }
    }
    const agent = users.find((u) => u.account.role === 'agent')
    const agentCategories = [...new Set([...categoryIds, ...(volume?.categoryIds ?? [])])]
    if (agent !== undefined) {
      await helpdesk.agents.setCategories(CLI_ACTOR, agent.user.id, agentCategories)
      // What a working agent holds: assigning tickets (to themselves and colleagues), customers and articles.
      await helpdesk.agents.updatePermissions(CLI_ACTOR, agent.user.id, DEMO_AGENT_PERMISSIONS)
    }
    if (options.json === true) {
      io.out(JSON.stringify({
        accounts: DEMO_ACCOUNTS.map(({ role, email, password }) => ({ role, email, password })),
        categories: categoryIds,
        ...(demo !== null ? { demo } : {}),
        ...(volume !== null ? { volume: { ...volume, plan, password: VOLUME_PASSWORD } } : {})
      }))
      return
    }
    io.out('Demo data ready. Accounts (email / password):')
    for (const { account, created } of users) {
      io.out(`  ${account.role.padEnd(8)} ${account.email} / ${account.password}${created ? '' : ' (already existed; password unchanged)'}`)
    }
    io.out(`  categories: ${DEMO_CATEGORIES.join(', ')}`)
    if (demo !== null) {
      io.out(`  more customers: ${DEMO_CUSTOMERS.map((c) => c.email).join(', ')} (password ${DEMO_ACCOUNTS[2].password})`)
      io.out(`Demo content added: ${demo.tickets} tickets, ${demo.comments} replies and notes, ${demo.attachments} attachment, ` +
        `${demo.customFields} custom fields, ${demo.cannedResponses} canned responses, ${demo.collections} collections, ${demo.articles} articles` +
        (demo.tickets + demo.articles + demo.cannedResponses === 0 ? ' (all there already)' : ''))
    }
    if (volume !== null) {
      const rate = Math.round(volume.tickets / Math.max(volume.seconds, 0.001))
      io.out(`Generated ${volume.tickets} tickets with ${volume.comments} comments, ${volume.customers} customers, ${volume.agents} agents ` +
        `in ${volume.categories} categories in ${volume.seconds.toFixed(1)} s (${rate} tickets/s, --seed ${plan?.seed ?? 1}). ` +
        `Generated people log in with the password "${VOLUME_PASSWORD}".`)
    }
  }, (store) => helpdeskFor(config, store))
}

export function seedCommand (io: CliIo): Command {
  return new Command('seed')
    .description('Create demo accounts and categories (idempotent); with --tickets, also generate realistic volume data')
    .option('--database <url>', 'sqlite:PATH or postgres://... (env HELPDESK_DATABASE_URL)')
    .option('--json', 'print the created accounts (and the volume summary) as JSON, without a progress bar')
    .option('--tickets <n>', 'generate N tickets (oldest first, spread over --years)')
    .option('--customers <n>', 'generate N customers who own them (default tickets / 5)')
    .option('--comments-per-ticket <k>', 'average comments per ticket, 0 to 2K each (default 2)')
    .option('--agents <n>', 'generate N agents, each in one to three categories (default 20)')
    .option('--categories <n>', 'use N categories (default 8)')
    .option('--seed <n>', 'PRNG seed: the same seed writes the same data (default 1)')
    .option('--years <n>', 'spread tickets over N years up to 2026-01-01 (default 3)')
    .addHelpText('after', '\nExamples:\n  helpdesk seed && helpdesk serve\n  helpdesk seed --tickets 1000000 --customers 200000 --comments-per-ticket 2 --seed 7')
    .action(async (options: SeedOptions) => { await seed(options, io) })
}
