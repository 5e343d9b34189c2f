import multipart from '@fastify/multipart'
import { Type } from '@sinclair/typebox'
import { ATTACHMENT_ID_PATTERN, ATTACHMENT_MAX_BYTES, DEFAULT_UPLOAD_QUOTA, ValidationError } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import { attachmentDisposition } from '../../http/content-disposition.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import { Attachment, Data, FileUpload, PayloadTooLargeBody, presentAttachment, responses, Success } from '@helpdesk/shapes'

const AttachmentParams = Type.Object({ id: Type.String({ pattern: ATTACHMENT_ID_PATTERN }) })

export function attachmentRoutes (app: HelpdeskApp, { helpdesk, options }: RouteContext): void {
  const tags = ['Attachments']
  const attachments = helpdesk.attachments
  const quota = { ...DEFAULT_UPLOAD_QUOTA, ...options.uploadQuota }

  // Uploads never linked to a ticket or comment go after 24 h (CONTRACT §12): the hourly `uploads.prune` job.

  // Multipart parsing only in this scope, unless the plugin already parses it.
  void app.register(async (scope) => {
    if (!scope.hasContentTypeParser('multipart/form-data')) await scope.register(multipart)

    scope.post('/attachments', {
      schema: {
        tags,
        summary: 'Upload a file (multipart field `file`, at most 30 MB); link it by id when creating a ticket or comment',
        description: 'Uploads not yet linked to a ticket or comment count against a per-user quota (by default 50 files and 200 MB ' +
          'together; the server\'s `uploadQuota`): past it, 422 on `file`. Unlinked uploads are removed after 24 hours.',
        consumes: ['multipart/form-data'],
        response: responses({ 201: Data(Attachment), 413: PayloadTooLargeBody })
      },
      config: { multipartBody: FileUpload('The file, at most 30 MB; its name is kept in `name`.') }
    }, async (request, reply) => {
      const actor = actorOf(request)
      const missing = ValidationError.field('file', 'The file field is required.')
      if (!request.isMultipart()) throw missing
      // One byte over the limit reaches the service, which refuses it while streaming (413).
      const part = await request.file({ limits: { fileSize: ATTACHMENT_MAX_BYTES + 1, files: 1, fields: 10, parts: 11 } })
      if (part === undefined || part.fieldname !== 'file') throw missing
      try {
        const attachment = await attachments.upload(actor, { name: part.filename, content: part.file }, quota)
        return await reply.code(201).send({ data: presentAttachment(attachment) })
      } finally {
        // Whatever was not read (an upload refused midway) is discarded, not left to stall the request.
        part.file.resume()
      }
    })
  })

  app.get('/attachments/:id', {
    schema: { tags, summary: 'View an attachment', params: AttachmentParams, response: responses({ 200: Data(Attachment) }) }
  }, async (request) => ({ data: presentAttachment(await attachments.view(actorOf(request), request.params.id)) }))

  app.get('/attachments/:id/download', {
    schema: {
      tags,
      summary: 'Download an attachment',
      description: 'The stored bytes with the sniffed `Content-Type`, as a download (`Content-Disposition: attachment`).',
      params: AttachmentParams,
      produces: ['application/octet-stream'],
      response: responses({ 200: Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: 'The file.' }) })
    }
  }, async (request, reply) => {
    const { attachment, content } = await attachments.download(actorOf(request), request.params.id)
    return await reply
      .header('content-type', attachment.mime_type)
      .header('content-length', attachment.size)
      .header('content-disposition', attachmentDisposition(attachment.name))
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'private, no-cache')
      .send(content)
  })

  app.delete('/attachments/:id', {
    schema: { tags, summary: 'Delete an attachment and its file (its uploader, administrators)', params: AttachmentParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await attachments.delete(actorOf(request), request.params.id)
    return { success: true as const }
  })
}
