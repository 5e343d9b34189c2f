import { plainText } from '../html.js'
import { defineList } from '../list/list-spec.js'
import type { DateTimeString } from '../time.js'

export const CommentType = { Reply: 1, Note: 2 } as const
export type CommentTypeNumber = typeof CommentType[keyof typeof CommentType]

/** The `type_text` of create and update responses. */
export function commentTypeText (type: CommentTypeNumber): 'Reply' | 'Note' {
  return type === CommentType.Note ? 'Note' : 'Reply'
}

export const COMMENT_PREVIEW_LENGTH = 200

/** `preview`: the body as plain text, at most 200 characters (CONTRACT §13). */
export function commentPreview (body: string): string {
  return plainText(body, COMMENT_PREVIEW_LENGTH)
}

export interface Comment {
  id: number
  ticket_id: number
  /** The author; null once that user is deleted. */
  user_id: number | null
  body: string
  preview: string
  type: CommentTypeNumber
  private: boolean
  created_at: DateTimeString
  updated_at: DateTimeString
}

export const commentList = defineList({
  resource: 'comments',
  includes: ['user', 'attachments', 'ticket'],
  sorts: ['created_at'],
  defaultSort: 'created_at',
  keyTypes: { created_at: 'datetime' },
  partialFilters: [],
  exactFilters: []
})
