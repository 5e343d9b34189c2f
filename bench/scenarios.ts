/**
 * What the benchmark asks, as HTTP requests both servers answer (the help
 * desk, and the baseline that mimics its routes with raw SQL): each scenario
 * draws its next request from a random stream, so ids and pages vary.
 */

export interface BenchRequest { method: 'GET' | 'POST' | 'PATCH', path: string, body?: string }

export interface ScenarioContext {
  tickets: number
  random: () => number
}

export interface Scenario {
  name: string
  title: string
  next: (ctx: ScenarioContext) => BenchRequest
}

/** A word in about a third of the seeded tickets, and one the seed never writes. */
export const COMMON_WORD = 'account'
export const MISSING_WORD = 'zyzzyva'
/** Comments the benchmark writes carry this text, so the runner can remove them afterwards. */
export const BENCH_COMMENT = 'Benchmark note: please ignore.'

import { LONG_COMMENTS_TICKET, LONG_HISTORY_TICKET, LONG_LENGTH } from './long-tickets.js'

const API = '/api/v1'
const q = (name: string): string => encodeURIComponent(name)
const int = (ctx: ScenarioContext, min: number, max: number): number => min + Math.floor(ctx.random() * (max - min + 1))
const ticketId = (ctx: ScenarioContext): number => int(ctx, 1, ctx.tickets)

export const LIST_INCLUDES = 'user,category,agent,replies-count'
export const VIEW_INCLUDES = 'user,category,agent,replies-count,last_reply'
/** What the console's inbox asks for (packages/web/src/app/screens/Inbox.tsx), unread markers included. */
export const INBOX_INCLUDES = 'user,category,agent,last_read_by_me,replies-count'
/** The inbox's page size and default filter (active tickets: open and pending), newest activity first. */
export const INBOX_PER_PAGE = 25
export const INBOX_STATUSES = '1,2'
/** Seeded categories (`helpdesk seed` writes 8 by default): the inbox's category filter picks one of them. */
const CATEGORIES = 8

const single: Scenario[] = [
  {
    name: 'ticket-by-id',
    title: 'ticket by id',
    next: (ctx) => ({ method: 'GET', path: `${API}/tickets/${ticketId(ctx)}` })
  },
  {
    name: 'ticket-by-id-includes',
    title: `ticket by id, include=${VIEW_INCLUDES}`,
    next: (ctx) => ({ method: 'GET', path: `${API}/tickets/${ticketId(ctx)}?include=${q(VIEW_INCLUDES)}` })
  },
  {
    name: 'list-includes',
    title: `list page 1-20, include=${LIST_INCLUDES}`,
    next: (ctx) => ({ method: 'GET', path: `${API}/tickets?include=${q(LIST_INCLUDES)}&page=${int(ctx, 1, 20)}` })
  },
  {
    name: 'list-status-sorted',
    title: 'list filter[status]=1 sort=-created_at, pages 1-5',
    next: (ctx) => ({ method: 'GET', path: `${API}/tickets?${q('filter[status]')}=1&sort=-created_at&page=${int(ctx, 1, 5)}` })
  },
  {
    name: 'search-common',
    title: `filter[search]=${COMMON_WORD} sort=-created_at`,
    next: () => ({ method: 'GET', path: `${API}/tickets?${q('filter[search]')}=${COMMON_WORD}&sort=-created_at` })
  },
  {
    name: 'search-missing',
    title: `filter[search]=${MISSING_WORD} sort=-created_at`,
    next: () => ({ method: 'GET', path: `${API}/tickets?${q('filter[search]')}=${MISSING_WORD}&sort=-created_at` })
  },
  {
    // The console's inbox as it opens (first page, cursor paging, active tickets by last activity), and in a
    // quarter of the requests narrowed to one category, encoded as the console's URLSearchParams encodes it.
    name: 'inbox',
    title: `inbox: include=${INBOX_INCLUDES}, filter[status]=${INBOX_STATUSES} (1 in 4 also filter[categories]), sort=-updated_at, per_page=${INBOX_PER_PAGE}, cursor`,
    next: (ctx) => {
      const params = new URLSearchParams({ include: INBOX_INCLUDES, sort: '-updated_at', 'filter[status]': INBOX_STATUSES })
      if (ctx.random() < 0.25) params.set('filter[categories]', String(int(ctx, 1, CATEGORIES)))
      params.set('cursor', '')
      params.set('per_page', String(INBOX_PER_PAGE))
      return { method: 'GET', path: `${API}/tickets?${params.toString()}` }
    }
  },
  {
    // Issue 31: one long ticket's comments and one long ticket's history, read the way the console's ticket view reads them.
    name: 'comments-200',
    title: `comments list of a ticket with ${LONG_LENGTH} comments (include=user, per_page=100, pages 1-2)`,
    next: (ctx) => ({ method: 'GET', path: `${API}/tickets/${LONG_COMMENTS_TICKET}/comments?include=user&per_page=100&page=${int(ctx, 1, 2)}` })
  },
  {
    name: 'history-200',
    title: `history list of a ticket with ${LONG_LENGTH} changes (include=user, per_page=100, pages 1-2)`,
    next: (ctx) => ({ method: 'GET', path: `${API}/tickets/${LONG_HISTORY_TICKET}/history?include=user&per_page=100&page=${int(ctx, 1, 2)}` })
  },
  {
    // A staff status change on a random ticket: the help desk writes the ticket, its event, and (issue 31) its history row.
    name: 'update-ticket',
    title: 'ticket update: PATCH status 1 or 2 of a random ticket (with its history row; the baseline writes the ticket alone)',
    next: (ctx) => ({ method: 'PATCH', path: `${API}/tickets/${ticketId(ctx)}`, body: JSON.stringify({ status: int(ctx, 1, 2) }) })
  },
  {
    name: 'create-comment',
    title: 'create comment (a note on a random ticket)',
    next: (ctx) => ({
      method: 'POST',
      path: `${API}/tickets/${ticketId(ctx)}/comments`,
      body: JSON.stringify({ body: BENCH_COMMENT, type: 2, private: true })
    })
  }
]

/** Reads and writes as a busy desk sends them: (scenario, weight). */
const MIX: Array<[string, number]> = [
  ['ticket-by-id', 35], ['ticket-by-id-includes', 10], ['list-includes', 10], ['inbox', 10], ['list-status-sorted', 15],
  ['search-common', 5], ['search-missing', 5], ['create-comment', 10]
]

const mixed: Scenario = {
  name: 'mixed',
  title: 'mixed: 90% reads (by id, lists, inbox, search), 10% new comments',
  next: (ctx) => {
    const total = MIX.reduce((sum, [, w]) => sum + w, 0)
    let pick = ctx.random() * total
    for (const [name, weight] of MIX) {
      pick -= weight
      if (pick < 0) return (single.find((s) => s.name === name) as Scenario).next(ctx)
    }
    return (single[0] as Scenario).next(ctx)
  }
}

export const SCENARIOS: Scenario[] = [...single, mixed]

/** A seeded stream of floats in [0, 1), so both servers get the same sequence of requests. */
export function randomStream (seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
