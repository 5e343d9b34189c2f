/** Resource shapes as the public API returns them (docs/http-api.md, SERVICE-SPEC.md, CONTRACT.md). */
import type { Article as ArticleEntity, Tag } from '@helpdesk/core'

export type UserType = 'admin' | 'agent' | 'customer'

export interface SessionUser {
  id: number
  type: UserType
  first_name: string
  last_name: string
  email: string
  avatar: string
}

export interface Person {
  id: number
  first_name: string
  last_name: string
  email: string
  avatar?: string
  type?: UserType
}

export type Permissions = Record<string, boolean>
export const PERMISSION_KEYS = ['view_all_tickets', 'manage_customers', 'manage_articles', 'assign_tickets', 'delete_tickets'] as const
export type PermissionKey = typeof PERMISSION_KEYS[number]

export interface Category {
  id: number
  name: string
  order: number
  purchase_verification: number
  marketplace_item_id: number | null
  thumbnail: string | null
  fields?: CustomField[]
}

export interface CustomField {
  id: number
  type: 'select-box' | 'text' | 'text-area'
  title: string
  placeholder: string | null
  description: string | null
  required: boolean
  meta: string[]
  categories_count?: number
}

export interface Attachment {
  id: string
  name: string
  mime_type: string
  size: number
}

export interface Comment {
  id: number
  body: string
  preview: string
  type: 1 | 2
  private: boolean
  created_at: string
  user?: Person | null
  attachments?: Attachment[]
}

export interface Ticket {
  id: number
  user_id: number
  title: string
  body: string
  status: 1 | 2 | 3
  private: boolean
  additional: { fields?: Record<string, string>, purchase_code?: string }
  category_id: number
  assigned_agent_id: number | null
  created_at: string
  updated_at: string
  user?: Person | null
  agent?: Person | null
  category?: Category | null
  attachments?: Attachment[]
  last_read_by_me?: string | null
  replies_count?: number
  /** The latest rating (owner and staff), with `include=satisfaction`. */
  satisfaction?: SatisfactionRating | null
  /** SLA due times (staff only). */
  first_response_due_at?: string | null
  next_response_due_at?: string | null
  resolution_due_at?: string | null
  sla_next_due_at?: string | null
}

export interface Customer extends Person {
  company: string | null
  status: number
  created_at: string
  last_login_at: string | null
  tickets_count?: number
}

export interface CustomerNote {
  id: number
  text: string
  created_at: string
  creator?: Person | null
}

export interface Agent extends Person {
  role: 1 | 2
  status: number
  timezone?: string | null
}

export interface CannedResponse {
  id: number
  name: string
  body: string
  global: boolean
}

export interface Collection {
  id: number
  category_id: number
  name: string
  order: number
  visibility: number
  articles_count?: number
}

/** The API answers an article as the core entity is, plus what `include` adds. */
export interface Article extends ArticleEntity {
  tags?: Tag[]
}

export interface Notification {
  id: string
  type: string
  data: { ticket?: { id: number, title: string } }
  author: { id: number, name: string } | null
  read_at: string | null
  created_at: string
}

export interface ImportJob {
  id: number
  status: 'queued' | 'running' | 'completed' | 'failed'
  total: number
  processed: number
  created: number
  failed: number
  message: string | null
}

/** One of the signed-in person's sessions (`GET /auth/sessions`). */
export interface SignInSession {
  id: number
  type: 'cookie' | 'bearer'
  created_at: string
  last_used_at: string
  expires_at: string
  user_agent: string | null
  ip: string | null
  current: boolean
}

/** One rating of one closing of a ticket (`GET /tickets/{id}?include=satisfaction`, `/tickets/{id}/satisfaction`). */
export interface SatisfactionRating {
  ticket_id: number
  resolution: number
  rating: 'good' | 'bad'
  comment: string | null
  user_id: number | null
  agent_id: number | null
  category_id: number | null
  channel: string | null
  closed_at: string
  created_at: string
  updated_at: string
}

export interface SatisfactionSurvey { enabled: boolean, question: string, good_label: string, bad_label: string }

/** `GET /tickets/{id}/satisfaction`. */
export interface TicketSatisfaction {
  survey: SatisfactionSurvey
  resolution: number | null
  can_rate: boolean
  reason: 'disabled' | 'not-closed' | 'superseded' | 'no-resolution' | 'not-owner' | null
  rating: SatisfactionRating | null
  ratings: SatisfactionRating[]
}

/** `POST /satisfaction/link`: what a closing mail's rating link is about. */
export interface LinkSatisfaction {
  ticket: { id: number, title: string, status: number }
  survey: SatisfactionSurvey
  resolution: number
  can_rate: boolean
  reason: 'disabled' | 'not-closed' | 'superseded' | 'no-resolution' | null
  rating: SatisfactionRating | null
  expires_at: string
}
