import { Readable } from 'node:stream'
import { Type } from '@sinclair/typebox'
import { TICKET_FACT_COLUMNS, toCsv, type ReportQuery } from '@helpdesk/core'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { actorOf } from '../../http/authentication.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import { Data, Report, ReportParams, ReportQuerystring, responses, TicketRows, TicketRowsQuerystring } from '@helpdesk/shapes'

const CsvBody = Type.Unsafe<unknown>({ type: 'string', description: 'With `format=csv` or `Accept: text/csv`: the same table as CSV (a header line, CRLF).' })

/** CSV when asked by `format=csv`, or by an `Accept` that prefers it to JSON. */
function wantsCsv (request: FastifyRequest, format: string | undefined): boolean {
  if (format !== undefined) return format === 'csv'
  const accept = request.headers.accept ?? ''
  return /\btext\/csv\b/.test(accept) && !/\bapplication\/json\b/.test(accept)
}

function queryOf (q: ReportQuerystring | TicketRowsQuerystring): ReportQuery {
  const query: ReportQuery = { from: q.from, to: q.to }
  if (q.time_zone !== undefined) query.time_zone = q.time_zone
  if (q.category !== undefined) query.category = q.category
  if (q.agent !== undefined) query.agent = q.agent
  if (q.channel !== undefined) query.channel = q.channel
  if (q.priority !== undefined) query.priority = q.priority
  if ('group_by' in q && q.group_by !== undefined) query.group_by = q.group_by
  if ('interval' in q && q.interval !== undefined) query.interval = q.interval
  if ('time' in q && q.time !== undefined) query.time = q.time
  return query
}

function csv (reply: FastifyReply, name: string, body: string | Readable): FastifyReply {
  return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}.csv"`).header('cache-control', 'private, no-cache').send(body)
}

/**
 * Reports (docs/reports.md): figures from the rollups over local dates of a
 * time zone, grouped by category, agent, channel or priority, as JSON or CSV, and the
 * ticket-level rows behind them. Staff: administrators see every ticket,
 * agents those of their categories (and their own), unless the setting
 * `reports.admins_only` keeps reports to administrators.
 */
export function reportRoutes (app: HelpdeskApp, { helpdesk }: RouteContext): void {
  const tags = ['Reports']
  const reports = helpdesk.reports

  app.get('/reports/tickets', {
    schema: {
      tags,
      summary: 'The ticket-level rows behind the reports (JSON pages or one CSV)',
      description: 'Tickets created or resolved in the range, by id: each one\'s facts (first response, resolution, replies, reopens, rating). ' +
        'JSON comes in pages (`after`, `per_page`); CSV has every row.',
      querystring: TicketRowsQuerystring,
      produces: ['application/json', 'text/csv'],
      response: responses({ 200: Type.Union([TicketRows, CsvBody]) })
    }
  }, async (request, reply) => {
    const actor = actorOf(request)
    const query = queryOf(request.query)
    if (wantsCsv(request, request.query.format)) {
      // Checks the query and the caller before the first byte; then streams page by page.
      await reports.scope(actor, query)
      const pages = async function * (): AsyncGenerator<string> {
        yield toCsv(TICKET_FACT_COLUMNS, [])
        for (let after = 0; ;) {
          const rows = await reports.tickets(actor, query, after, 5000)
          if (rows.length === 0) return
          yield toCsv(TICKET_FACT_COLUMNS, rows).split('\r\n').slice(1).join('\r\n')
          after = rows.at(-1)?.ticket_id ?? after
        }
      }
      return csv(reply, `tickets-${query.from}-${query.to}`, Readable.from(pages()))
    }
    const perPage = request.query.per_page ?? 1000
    const rows = await reports.tickets(actor, query, request.query.after ?? 0, perPage)
    return { data: rows, meta: { next_after: rows.length === perPage ? rows.at(-1)?.ticket_id ?? null : null } }
  })

  app.get('/reports/:metric', {
    schema: {
      tags,
      summary: 'A report: response times, resolution times, replies, reopen rate, volume, backlog or satisfaction',
      description: 'Over local dates `from`..`to` in `time_zone`, optionally grouped (`group_by`) and filtered (category, agent, channel, priority). ' +
        'Durations are calendar seconds with the mean, median and 90th percentile (nearest rank). Answered from the rollups, never by ' +
        'scanning tickets. `format=csv` or `Accept: text/csv` for CSV. See docs/reports.md for every column.',
      params: ReportParams,
      querystring: ReportQuerystring,
      produces: ['application/json', 'text/csv'],
      response: responses({ 200: Type.Union([Data(Report), CsvBody]) })
    }
  }, async (request, reply) => {
    const report = await reports.report(actorOf(request), request.params.metric, queryOf(request.query))
    if (wantsCsv(request, request.query.format)) return csv(reply, `${report.metric}-${report.from}-${report.to}`, toCsv(report.columns, report.rows))
    return { data: report }
  })
}
