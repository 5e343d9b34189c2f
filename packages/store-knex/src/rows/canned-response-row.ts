import type { CannedResponse } from '@helpdesk/core'
import { bool } from './row-values.js'

export interface CannedResponseRow extends Omit<CannedResponse, 'global'> {
  global: number | boolean
}

export const cannedResponseColumns = ['id', 'user_id', 'global', 'name', 'body', 'created_at', 'updated_at']
  .map((c) => `canned_responses.${c}`)

export function cannedResponseFromRow (row: CannedResponseRow): CannedResponse {
  return {
    id: row.id,
    user_id: row.user_id,
    global: bool(row.global),
    name: row.name,
    body: row.body,
    created_at: row.created_at,
    updated_at: row.updated_at
  }
}
