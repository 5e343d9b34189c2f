import { defineList } from '../list/list-spec.js'
import type { DateTimeString } from '../time.js'

/** A reusable reply. Its body is HTML and may hold placeholder tokens (`{{ ticket.id }}`). */
export interface CannedResponse {
  id: number
  /** The creator. */
  user_id: number
  /** Visible to all staff; otherwise to its creator and administrators. */
  global: boolean
  name: string
  body: string
  created_at: DateTimeString
  updated_at: DateTimeString
}

export interface CannedResponseInput {
  name: string
  body: string
  global?: boolean | undefined
}

export type CannedResponsePatch = Partial<CannedResponseInput>

export const CANNED_RESPONSE_LIMITS = { name: 250, body: 65535 } as const

export const cannedResponseList = defineList({
  resource: 'canned responses',
  includes: [],
  sorts: ['created_at'],
  defaultSort: '-created_at',
  keyTypes: { created_at: 'datetime' },
  /** `content` matches the name or the body. */
  partialFilters: ['content'],
  exactFilters: []
})
