import { Type, type Static } from '@sinclair/typebox'
import type { ImportJob as ImportJobEntity } from '@helpdesk/core'
import { DateTime, Nullable } from '../common.js'

export const ImportJob = Type.Object({
  id: Type.Integer(),
  status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')]),
  total: Type.Integer({ description: 'Records in the file (0 until counted).' }),
  processed: Type.Integer({ description: 'Records read and committed.' }),
  created: Type.Integer({ description: 'Rows created: categories, agents, customers, tickets, comments.' }),
  failed: Type.Integer({ description: 'Records of the batch that failed and was rolled back.' }),
  message: Nullable(Type.String({ description: 'Why it failed, naming the record (`Line 57: ...`).' })),
  created_at: DateTime,
  updated_at: DateTime
})

export const ImportQuery = Type.Object({
  format: Type.Optional(Type.Union([Type.Literal('jsonl'), Type.Literal('json'), Type.Literal('csv')], {
    description: 'Default: from the file name, else from the content.'
  }))
})

export function presentImport (job: ImportJobEntity): Static<typeof ImportJob> {
  return {
    id: job.id,
    status: job.status,
    total: job.total,
    processed: job.processed,
    created: job.created,
    failed: job.failed,
    message: job.message,
    created_at: job.created_at,
    updated_at: job.updated_at
  }
}
