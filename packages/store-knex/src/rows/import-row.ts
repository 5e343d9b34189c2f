import type { ImportFormat, ImportJob, ImportStatusName } from '@helpdesk/core'

export const importColumns = [
  'id', 'user_id', 'status', 'format', 'file_name', 'total', 'processed', 'created', 'failed', 'message', 'created_at', 'updated_at'
].map((c) => `imports.${c}`)

export type ImportRow = Omit<ImportJob, 'status' | 'format'> & { status: string, format: string | null }

export function importFromRow (row: ImportRow): ImportJob {
  return {
    id: row.id,
    user_id: row.user_id,
    status: row.status as ImportStatusName,
    format: row.format as ImportFormat | null,
    file_name: row.file_name,
    total: Number(row.total),
    processed: Number(row.processed),
    created: Number(row.created),
    failed: Number(row.failed),
    message: row.message,
    created_at: row.created_at,
    updated_at: row.updated_at
  }
}
