import { defineList } from '../list/list-spec.js'
import type { DateTimeString } from '../time.js'

export interface CustomerNote {
  id: number
  customer_id: number
  creator_id: number | null
  text: string
  created_at: DateTimeString
  updated_at: DateTimeString
}

/** Characters of a note, before sanitising. */
export const NOTE_MAX_LENGTH = 65535

export const customerNoteList = defineList({
  resource: 'customer notes',
  includes: ['creator', 'user'],
  sorts: ['created_at'],
  defaultSort: '-created_at',
  keyTypes: { created_at: 'datetime' },
  partialFilters: ['text'],
  exactFilters: ['creator_id']
})
