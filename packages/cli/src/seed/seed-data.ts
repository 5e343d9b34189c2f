import { CommentType, formatDateTime, TicketStatus, type TicketImport, type TicketStatusNumber } from '@helpdesk/core'
import { SeededRandom, WeightedPicker } from './seed-random.js'
import {
  ACTIONS, AGENT_REPLIES, CATEGORY_NAMES, COMPANIES, CUSTOMER_REPLIES, EMAIL_DOMAINS, EVENTS, FILLERS, FIRST_NAMES,
  LAST_NAMES, NOTES, PROBLEMS, SUBJECTS
} from './seed-words.js'

/** What `helpdesk seed --tickets N ...` generates. */
export interface VolumePlan {
  tickets: number
  customers: number
  /** Average comments per ticket (each ticket gets 0 to 2K). */
  commentsPerTicket: number
  agents: number
  categories: number
  /** The PRNG seed: the same plan and seed give the same data. */
  seed: number
  /** Tickets are spread over this many years before SEED_END. */
  years: number
}

/** Generated tickets end here, so a seed writes the same dates whenever it runs. */
export const SEED_END = Date.UTC(2026, 0, 1)

export interface PersonData { first_name: string, last_name: string, email: string, company: string | null }

/** Ids of what was written before the tickets, which tickets refer to. */
export interface SeedRefs {
  customerIds: number[]
  categoryIds: number[]
  /** Agent ids by index of `categoryIds`. */
  agentsByCategory: number[][]
}

const DAY = 86_400_000
const HOUR = 3_600_000

function ascii (text: string): string {
  return text.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '')
}

/**
 * Generates the volume seed's records from one seeded PRNG, in a fixed order
 * (categories, agents, customers, then tickets by index), so the data is the
 * same whatever the batch sizes.
 */
export class VolumeData {
  private readonly random: SeededRandom
  private readonly subjects = new WeightedPicker(SUBJECTS, 1)
  private readonly problems = new WeightedPicker(PROBLEMS, 0.7)
  private readonly fillers = new WeightedPicker(FILLERS, 0.5)
  private readonly categoryPicker: WeightedPicker<number>

  constructor (readonly plan: VolumePlan) {
    this.random = new SeededRandom(plan.seed)
    this.categoryPicker = new WeightedPicker(Array.from({ length: plan.categories }, (_, i) => i), 0.8)
  }

  categoryNames (): string[] {
    return Array.from({ length: this.plan.categories }, (_, i) => {
      const base = CATEGORY_NAMES[i % CATEGORY_NAMES.length] as string
      return i < CATEGORY_NAMES.length ? base : `${base} ${Math.floor(i / CATEGORY_NAMES.length) + 1}`
    })
  }

  /** The categories (indexes) agent `i` works in: one to three. */
  agentCategories (i: number): number[] {
    const own = new Set([i % this.plan.categories])
    const extra = this.random.int(0, 2)
    for (let k = 0; k < extra; k++) own.add(this.random.int(0, this.plan.categories - 1))
    return [...own]
  }

  agent (i: number): PersonData {
    const first = this.random.pick(FIRST_NAMES)
    const last = this.random.pick(LAST_NAMES)
    return { first_name: first, last_name: last, email: `${ascii(first)}.${ascii(last)}.agent${i}@s${this.plan.seed}.helpdesk.example`, company: null }
  }

  customer (i: number): PersonData {
    const first = this.random.pick(FIRST_NAMES)
    const last = this.random.pick(LAST_NAMES)
    const domain = this.random.pick(EMAIL_DOMAINS)
    return {
      first_name: first,
      last_name: last,
      email: `${ascii(first)}.${ascii(last)}.${i}@s${this.plan.seed}.${domain}`,
      company: this.random.chance(0.3) ? this.random.pick(COMPANIES) : null
    }
  }

  /** Ticket `i` (0-based; tickets are generated oldest first, so ids follow time). */
  ticket (i: number, refs: SeedRefs): TicketImport {
    const r = this.random
    const span = this.plan.years * 365 * DAY
    const created = Math.min(SEED_END - HOUR, SEED_END - span + (span * (i + r.next())) / this.plan.tickets)
    const age = (SEED_END - created) / span
    const status = this.status(age)
    const owner = this.owner(refs.customerIds)
    const categoryIndex = this.categoryPicker.pick(r)
    const agents = refs.agentsByCategory[categoryIndex] ?? []
    const agent = agents.length > 0 && (status !== TicketStatus.Open || r.chance(0.5)) && r.chance(0.8) ? r.pick(agents) : null
    const subject = this.subjects.pick(r)
    const comments = this.comments(owner, agent ?? (agents.length > 0 ? r.pick(agents) : null), subject, created, status)
    const updated = comments.at(-1)?.created_at ?? formatDateTime(new Date(created))
    return {
      user_id: owner,
      creator_id: agent !== null && r.chance(0.1) ? agent : owner,
      category_id: refs.categoryIds[categoryIndex] as number,
      title: this.title(subject),
      body: this.body(subject),
      status,
      private: r.chance(0.85),
      assigned_agent_id: agent,
      purchase_code: r.chance(0.1) ? this.purchaseCode() : null,
      created_at: formatDateTime(new Date(created)),
      updated_at: updated,
      comments
    }
  }

  private status (age: number): TicketStatusNumber {
    const r = this.random.next()
    if (age < 0.02) return r < 0.5 ? TicketStatus.Open : r < 0.8 ? TicketStatus.Pending : TicketStatus.Closed
    return r < 0.07 ? TicketStatus.Open : r < 0.15 ? TicketStatus.Pending : TicketStatus.Closed
  }

  /** Most customers write a few tickets; one in a hundred writes many. */
  private owner (customerIds: number[]): number {
    const r = this.random
    const frequent = Math.max(1, Math.floor(customerIds.length / 100))
    return r.chance(0.2) ? customerIds[r.int(0, frequent - 1)] as number : r.pick(customerIds)
  }

  private title (subject: string): string {
    const r = this.random
    switch (r.int(0, 5)) {
      case 0: return `My ${subject} ${this.problems.pick(r)}`
      case 1: return `Error when ${r.pick(ACTIONS)}`
      case 2: return `Question about my ${subject}`
      case 3: return `${capitalise(subject)} ${this.problems.pick(r)} after ${r.pick(EVENTS)}`
      case 4: return `How do I change the ${subject}?`
      default: return `Problem with ${subject} #${r.int(1000, 999999)}`
    }
  }

  private body (subject: string): string {
    const r = this.random
    const paragraphs = [`Hello, my ${subject} ${this.problems.pick(r)} since ${r.pick(EVENTS)}. It happens when ${r.pick(ACTIONS)}.`]
    const more = r.int(0, 2)
    for (let p = 0; p < more; p++) {
      const sentences = [`The ${this.subjects.pick(r)} ${this.problems.pick(r)} too.`]
      const fill = r.int(1, 3)
      for (let s = 0; s < fill; s++) sentences.push(this.fillers.pick(r))
      if (r.chance(0.3)) sentences.push(`Reference ${r.int(100000, 9999999)}.`)
      paragraphs.push(sentences.join(' '))
    }
    return paragraphs.map((p) => `<p>${p}</p>`).join('')
  }

  private comments (owner: number, agent: number | null, subject: string, created: number, status: TicketStatusNumber): NonNullable<TicketImport['comments']> {
    const r = this.random
    const k = this.plan.commentsPerTicket
    let count = k === 0 ? 0 : r.int(0, 2 * k)
    if (status === TicketStatus.Closed && agent !== null && k > 0) count = Math.max(1, count)
    const list: NonNullable<TicketImport['comments']> = []
    let at = created
    for (let c = 0; c < count; c++) {
      at = Math.min(SEED_END - 1000, at + r.int(5, 60 * 24) * 60_000)
      const byAgent = agent !== null && c % 2 === 0
      const note = byAgent && r.chance(0.1)
      const template = note ? r.pick(NOTES) : byAgent ? r.pick(AGENT_REPLIES) : r.pick(CUSTOMER_REPLIES)
      list.push({
        user_id: byAgent || note ? agent : owner,
        body: `<p>${template.replace('{s}', subject).replace('{n}', String(r.int(100, 99999)))}</p>`,
        type: note ? CommentType.Note : CommentType.Reply,
        private: note || r.chance(0.05),
        created_at: formatDateTime(new Date(at))
      })
    }
    return list
  }

  private purchaseCode (): string {
    const hex = (n: number): string => Array.from({ length: n }, () => this.random.int(0, 15).toString(16)).join('')
    return `${hex(8)}-${hex(4)}-4${hex(3)}-${hex(4)}-${hex(12)}`
  }
}

function capitalise (text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
