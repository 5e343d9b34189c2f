import multipart from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import { ensureCanImport, PayloadTooLargeError, ValidationError, type ImportFormat } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import { Data, FileUpload, IdParams, ImportJob, ImportQuery, PayloadTooLargeBody, presentImport, responses } from '@helpdesk/shapes'

/** Uploaded import files, like attachments (CONTRACT §12): larger files go through `helpdesk import FILE`. */
const MAX_IMPORT_BYTES = 30 * 2 ** 20

/** The `file` field of a multipart upload, as text. */
async function uploadedFile (request: FastifyRequest): Promise<{ fileName: string, content: string }> {
  const missing = ValidationError.field('file', 'The file field is required.')
  if (!request.isMultipart()) throw missing
  const part = await request.file({ limits: { fileSize: MAX_IMPORT_BYTES, files: 1 } })
  if (part === undefined || part.fieldname !== 'file') throw missing
  let content: Buffer
  try {
    content = await part.toBuffer()
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 413) throw new PayloadTooLargeError()
    throw error
  }
  if (content.length === 0) throw ValidationError.field('file', 'The file is empty.')
  return { fileName: part.filename, content: content.toString('utf8') }
}

/** Administrators import customers, agents, categories, tickets and comments (docs/import-format.md). */
export function importRoutes (app: HelpdeskApp, { helpdesk }: RouteContext): void {
  const tags = ['Imports']
  const imports = helpdesk.imports

  // Multipart parsing only for this route's scope, unless the plugin already parses it.
  void app.register(async (scope) => {
    if (!scope.hasContentTypeParser('multipart/form-data')) await scope.register(multipart)

    scope.post('/imports', {
      schema: {
        tags,
        summary: 'Start an import (multipart field `file`); runs in the background',
        consumes: ['multipart/form-data'],
        querystring: ImportQuery,
        response: responses({ 202: Data(ImportJob), 413: PayloadTooLargeBody })
      },
      config: { multipartBody: FileUpload('A JSON, JSON Lines or CSV file of records (docs/import-format.md), at most 30 MB.') }
    }, async (request, reply) => {
      const actor = actorOf(request)
      ensureCanImport(actor)
      const { format } = request.query as { format?: ImportFormat }
      const upload = await uploadedFile(request)
      // Runs as an `import.run` job (committed with the import), on whichever instance's runner claims it.
      const job = await imports.enqueue(actor, { ...upload, ...(format !== undefined ? { format } : {}) })
      return await reply.code(202).send({ data: presentImport(job) })
    })
  })

  app.get('/imports/:id', {
    schema: { tags, summary: 'Progress of an import', params: IdParams, response: responses({ 200: Data(ImportJob) }) }
  }, async (request) => ({ data: presentImport(await imports.view(actorOf(request), request.params.id)) }))
}
