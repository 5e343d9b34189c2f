import { Readable } from 'node:stream'
import {
  articleList, cannedResponseList, CollectionVisibility, CommentType, customFieldList, collectionList, parseListQuery, ticketList,
  type ArticleStatus, type Category, type CommentTypeNumber, type Helpdesk, type User
} from '@helpdesk/core'

/** The customers of the demo tickets besides `customer@example.com` (they log in with the same password). */
export const DEMO_CUSTOMERS = [
  { first_name: 'Maria', last_name: 'Garcia', email: 'maria.garcia@example.com' },
  { first_name: 'Kenji', last_name: 'Tanaka', email: 'kenji.tanaka@example.com' }
] as const

export interface DemoPeople {
  admin: User
  agent: User
  /** customer@example.com first, then DEMO_CUSTOMERS. */
  customers: User[]
  password: string
}

export interface DemoContentSummary {
  tickets: number
  comments: number
  attachments: number
  customFields: number
  cannedResponses: number
  collections: number
  articles: number
}

type Who = 'agent' | 'admin' | 'customer'

interface DemoTicket {
  /** Index into `customers`. */
  owner: number
  category: string
  title: string
  body: string
  private?: boolean
  /** Answers by custom-field title. */
  fields?: Record<string, string>
  attachment?: boolean
  thread: Array<{ by: Who, body: string, type?: CommentTypeNumber, close?: boolean }>
}

const Note = CommentType.Note

const FIELDS = [
  { type: 'select-box' as const, title: 'Operating system', options: ['Windows', 'macOS', 'Linux', 'Other'], required: false, category: 'Technical support' },
  { type: 'text' as const, title: 'Order number', placeholder: 'e.g. ORD-10442', required: false, category: 'Billing' }
]

const TICKETS: DemoTicket[] = [
  {
    owner: 0, category: 'Technical support', title: 'App crashes when exporting a report to PDF',
    body: 'Every time I export the monthly report to PDF the desktop app closes without an error. It started after yesterday\'s update.',
    fields: { 'Operating system': 'Windows' }, attachment: true,
    thread: [
      { by: 'agent', body: 'Thanks for the screenshot. Could you tell us the app version (Help > About)?' },
      { by: 'customer', body: 'It says 4.2.1.' },
      { by: 'agent', body: 'Reproduced on 4.2.1 with large reports; escalated to the desktop team.', type: Note }
    ]
  },
  {
    owner: 1, category: 'Billing', title: 'Charged twice for the March invoice',
    body: 'My card was charged twice for invoice INV-2031. Please refund the duplicate payment.',
    fields: { 'Order number': 'ORD-20311' },
    thread: [
      { by: 'agent', body: 'Sorry about that! I have refunded the duplicate charge; it shows on your statement within 5 business days.', close: true }
    ]
  },
  {
    owner: 2, category: 'General', title: 'How do I invite a colleague to my workspace?',
    body: 'I would like my colleague to see our tickets too. Where do I add them?', private: false,
    thread: [
      { by: 'agent', body: 'Go to Settings > Team and click "Invite". They get an email with a link.' },
      { by: 'customer', body: 'Found it, thanks!' }
    ]
  },
  {
    owner: 0, category: 'Technical support', title: 'Password reset email never arrives',
    body: 'I requested a password reset three times but nothing reached my inbox (spam folder checked).',
    fields: { 'Operating system': 'macOS' },
    thread: [
      { by: 'agent', body: 'Our mail log shows the messages were rejected by your mail server. Could you whitelist no-reply@example.com?' },
      { by: 'agent', body: 'Customer\'s domain uses strict greylisting; suggested whitelisting.', type: Note }
    ]
  },
  {
    owner: 1, category: 'Billing', title: 'Can I switch from monthly to yearly billing?',
    body: 'We are happy with the product and would like to move to the yearly plan. Is the discount applied immediately?',
    thread: [
      { by: 'admin', body: 'Yes: switching applies the 15% yearly discount from your next invoice. I have switched your plan.' }
    ]
  },
  {
    owner: 2, category: 'Technical support', title: 'Sync stuck at 99% on Linux',
    body: 'The sync client stays at 99% for hours. Restarting does not help.',
    fields: { 'Operating system': 'Linux' },
    thread: []
  },
  {
    owner: 0, category: 'General', title: 'Feature request: dark mode',
    body: 'Working late would be easier on the eyes with a dark theme. Any plans?', private: false,
    thread: [
      { by: 'agent', body: 'Thanks for the suggestion! Dark mode is on our roadmap for the next quarter.' },
      { by: 'agent', body: 'Added a vote to the roadmap item.', type: Note }
    ]
  },
  {
    owner: 1, category: 'Technical support', title: 'Error 502 when uploading large files',
    body: 'Uploading files above 100 MB fails with "502 Bad Gateway" after a minute.',
    fields: { 'Operating system': 'Windows' },
    thread: [
      { by: 'agent', body: 'The upload limit is 30 MB per file at the moment. Could you split the archive?' },
      { by: 'customer', body: 'Splitting worked, but a higher limit would help us a lot.' }
    ]
  },
  {
    owner: 2, category: 'Billing', title: 'VAT number missing on invoices',
    body: 'Our invoices need our VAT number (DE123456789). Can you add it?',
    fields: { 'Order number': 'ORD-19877' },
    thread: [
      { by: 'agent', body: 'Added DE123456789 to your billing profile; future invoices include it, and I re-issued the last one.', close: true }
    ]
  },
  {
    owner: 0, category: 'General', title: 'Do you offer a nonprofit discount?',
    body: 'We are a small registered charity. Is there a discount for nonprofits?',
    thread: []
  },
  {
    owner: 1, category: 'Technical support', title: 'Two-factor codes rejected after changing phones',
    body: 'I moved to a new phone and now every 2FA code is rejected. I still have my backup codes somewhere.',
    fields: { 'Operating system': 'Other' },
    thread: [
      { by: 'agent', body: 'A backup code will get you in; then disable and re-enable two-factor to pair the new phone.' },
      { by: 'customer', body: 'That did it.', close: true }
    ]
  },
  {
    owner: 2, category: 'General', title: 'Is there an API for exporting tickets?',
    body: 'We would like to export our tickets into our data warehouse every night.',
    thread: [
      { by: 'agent', body: 'Yes: the REST API lists tickets with filter[updated_since] for incremental exports. See /docs on your server.' }
    ]
  }
]

const CANNED_RESPONSES = [
  { name: 'Greeting', body: '<p>Hi {{ customer.first_name }},</p><p>thanks for reaching out!</p>', global: true },
  { name: 'Closing: resolved', body: '<p>I am closing this ticket now; reply any time if anything else comes up.</p>', global: true },
  { name: 'Ask for app version', body: '<p>Could you tell us the app version (Help &gt; About) and your operating system?</p>', global: false }
]

const COLLECTIONS: Array<{ name: string, category: string, articles: Array<{ title: string, body: string, status: ArticleStatus, tags: string[] }> }> = [
  {
    name: 'Getting started', category: 'General',
    articles: [
      { title: 'Creating your first workspace', body: '<p>Sign up, pick a name for your workspace and invite your team from <b>Settings &gt; Team</b>.</p>', status: 'published', tags: ['onboarding'] },
      { title: 'Inviting colleagues', body: '<p>Open <b>Settings &gt; Team</b>, click <b>Invite</b> and enter their email addresses.</p>', status: 'published', tags: ['onboarding', 'team'] },
      { title: 'Keyboard shortcuts (draft)', body: '<p>Work in progress: the list of shortcuts.</p>', status: 'draft', tags: ['tips'] }
    ]
  },
  {
    name: 'Billing FAQ', category: 'Billing',
    articles: [
      { title: 'Switching to yearly billing', body: '<p>Yearly plans get a 15% discount, applied from the next invoice.</p>', status: 'published', tags: ['billing'] },
      { title: 'Adding a VAT number to invoices', body: '<p>Add it under <b>Billing &gt; Profile</b>; past invoices can be re-issued on request.</p>', status: 'published', tags: ['billing', 'invoices'] }
    ]
  }
]

/** A 1x1 PNG: the screenshot attached to the first demo ticket. */
const SCREENSHOT = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')

const all = { per_page: 100 }

/**
 * The demo help desk a newcomer sees after `helpdesk seed`: tickets with
 * replies, notes and an attachment, custom fields and their answers, canned
 * responses and knowledge-base articles, all written through the services.
 * Idempotent: whatever exists (by title or name) is left alone.
 */
export async function seedDemoContent (helpdesk: Helpdesk, people: DemoPeople, categories: Category[]): Promise<DemoContentSummary> {
  const summary: DemoContentSummary = { tickets: 0, comments: 0, attachments: 0, customFields: 0, cannedResponses: 0, collections: 0, articles: 0 }
  const { admin, agent } = people
  const categoryId = (name: string): number => {
    const found = categories.find((c) => c.name === name)
    if (found === undefined) throw new Error(`demo category ${name} is missing`)
    return found.id
  }
  const actor = (who: Who, owner: User): User => who === 'agent' ? agent : who === 'admin' ? admin : owner

  const fields = new Map((await helpdesk.customFields.list(admin, parseListQuery(customFieldList, all))).items.map((f) => [f.title, f.id]))
  for (const field of FIELDS) {
    if (fields.has(field.title)) continue
    const { category, ...input } = field
    fields.set(field.title, (await helpdesk.customFields.create(admin, { ...input, categories: [categoryId(category)] })).id)
    summary.customFields++
  }

  for (const [index, owner] of people.customers.entries()) {
    const existing = await helpdesk.tickets.list(admin, parseListQuery(ticketList, { ...all, filters: { email: owner.email } }))
    const titles = new Set(existing.items.filter((t) => t.user_id === owner.id).map((t) => t.title))
    for (const demo of TICKETS.filter((d) => d.owner === index && !titles.has(d.title))) {
      const attachments: string[] = []
      if (demo.attachment === true) {
        attachments.push((await helpdesk.attachments.upload(owner, { name: 'screenshot.png', content: Readable.from([SCREENSHOT]) })).id)
        summary.attachments++
      }
      const answers = Object.fromEntries(Object.entries(demo.fields ?? {}).map(([title, value]) => [String(fields.get(title)), value]))
      const ticket = await helpdesk.tickets.create(owner, {
        category: categoryId(demo.category), title: demo.title, body: `<p>${demo.body}</p>`, private: demo.private ?? true, fields: answers, attachments
      })
      summary.tickets++
      if (demo.thread.some((c) => c.by === 'agent')) await helpdesk.tickets.assign(admin, ticket.id, agent.id)
      for (const comment of demo.thread) {
        await helpdesk.comments.create(actor(comment.by, owner), ticket.id, {
          body: `<p>${comment.body}</p>`, type: comment.type ?? CommentType.Reply, private: false, close: comment.close ?? false
        })
        summary.comments++
      }
    }
  }

  const responses = new Set((await helpdesk.cannedResponses.list(agent, parseListQuery(cannedResponseList, all))).items.map((r) => r.name))
  for (const response of CANNED_RESPONSES) {
    if (responses.has(response.name)) continue
    await helpdesk.cannedResponses.create(response.global ? admin : agent, response)
    summary.cannedResponses++
  }

  const collections = new Map((await helpdesk.collections.list(admin, parseListQuery(collectionList, all))).items.map((c) => [c.name, c.id]))
  const articles = new Set((await helpdesk.articles.list(admin, parseListQuery(articleList, all))).items.map((a) => a.title))
  for (const collection of COLLECTIONS) {
    let id = collections.get(collection.name)
    if (id === undefined) {
      id = (await helpdesk.collections.create(admin, { name: collection.name, category_id: categoryId(collection.category), visibility: CollectionVisibility.Public })).id
      summary.collections++
    }
    for (const article of collection.articles.filter((a) => !articles.has(a.title))) {
      await helpdesk.articles.create(admin, { ...article, category: categoryId(collection.category), collection: id })
      summary.articles++
    }
  }
  return summary
}
