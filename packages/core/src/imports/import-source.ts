import { createReadStream } from 'node:fs'
import { extname } from 'node:path'
import { Readable } from 'node:stream'
import type { CsvError } from 'csv-parse'
import type { ImportFormat } from './import-job.js'

/** What an import reads: a file path, text already in memory (an upload), or a stream (read once). */
export type ImportInput = { path: string } | { text: string } | { stream: Readable }

/** One record of the file, before validation, with where it stands (`Line 57`, `tickets[3]`). */
export interface SourceRecord {
  location: string
  type: string
  value: Record<string, unknown>
}

/** A record that cannot be imported; the message names it (CONTRACT §11 `import.message`). */
export class ImportRecordError extends Error {
  constructor (readonly location: string, reason: string) {
    super(`${location}: ${reason}`)
    this.name = 'ImportRecordError'
  }
}

/** Sections of a JSON document, in the order they are imported (references point backwards). */
export const JSON_SECTIONS = [
  ['categories', 'category'], ['agents', 'agent'], ['customers', 'customer'], ['tickets', 'ticket'], ['comments', 'comment']
] as const

async function * chunksOf (input: ImportInput): AsyncGenerator<string> {
  if ('text' in input) {
    yield input.text
    return
  }
  const stream = 'path' in input ? createReadStream(input.path) : input.stream
  const decoder = new TextDecoder('utf-8')
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    yield typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
  }
  const rest = decoder.decode()
  if (rest !== '') yield rest
}

/** Lines without their line breaks, numbered from 1; a leading byte-order mark is dropped. */
async function * linesOf (chunks: AsyncIterable<string>): AsyncGenerator<[number, string]> {
  let carry = ''
  let number = 0
  let first = true
  for await (let chunk of chunks) {
    if (first && chunk.length > 0) {
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1)
      first = false
    }
    const text = carry + chunk
    let start = 0
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      yield [++number, text.slice(start, end).replace(/\r$/, '')]
      start = end + 1
    }
    carry = text.slice(start)
  }
  if (carry !== '') yield [++number, carry.replace(/\r$/, '')]
}

function isObject (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function typeOf (location: string, value: unknown): string {
  if (!isObject(value)) throw new ImportRecordError(location, 'a record must be a JSON object.')
  if (typeof value.type !== 'string' || value.type === '') throw new ImportRecordError(location, 'the record has no "type".')
  return value.type
}

async function * jsonLines (input: ImportInput): AsyncGenerator<SourceRecord> {
  for await (const [number, line] of linesOf(chunksOf(input))) {
    if (line.trim() === '') continue
    const location = `Line ${number}`
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      throw new ImportRecordError(location, `not valid JSON (${(error as Error).message}).`)
    }
    yield { location, type: typeOf(location, value), value: value as Record<string, unknown> }
  }
}

async function wholeText (input: ImportInput): Promise<string> {
  let text = ''
  for await (const chunk of chunksOf(input)) text += chunk
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

function lineAt (text: string, message: string): string {
  const position = /position (\d+)/.exec(message)?.[1]
  if (position === undefined) return 'The file'
  return `Line ${text.slice(0, Number(position)).split('\n').length}`
}

/** A JSON document `{categories: [], agents: [], customers: [], tickets: [], comments: []}`, or an array of typed records. */
async function parseDocument (input: ImportInput): Promise<unknown> {
  const text = await wholeText(input)
  try {
    return JSON.parse(text)
  } catch (error) {
    const message = (error as Error).message
    throw new ImportRecordError(lineAt(text, message), `not valid JSON (${message}).`)
  }
}

function * documentRecords (document: unknown): Generator<SourceRecord> {
  if (Array.isArray(document)) {
    for (const [index, value] of document.entries()) {
      const location = `[${index}]`
      yield { location, type: typeOf(location, value), value: value as Record<string, unknown> }
    }
    return
  }
  if (!isObject(document)) throw new ImportRecordError('The file', 'a JSON import is an object of sections or an array of records.')
  const known = new Set<string>(JSON_SECTIONS.map(([section]) => section))
  for (const key of Object.keys(document)) {
    if (!known.has(key)) throw new ImportRecordError(key, `unknown section; the sections are ${[...known].join(', ')}.`)
  }
  for (const [section, type] of JSON_SECTIONS) {
    const items = document[section] ?? []
    if (!Array.isArray(items)) throw new ImportRecordError(section, 'a section must be an array.')
    for (const [index, value] of items.entries()) {
      const location = `${section}[${index}]`
      if (!isObject(value)) throw new ImportRecordError(location, 'a record must be a JSON object.')
      yield { location, type, value }
    }
  }
}

/** CSV of customers: a header row naming the columns, then one customer a row. */
async function * csvRecords (input: ImportInput): AsyncGenerator<SourceRecord> {
  // The CSV parser (20 modules) loads with the first CSV import, not with every server's start-up.
  const { parse: parseCsv } = await import('csv-parse')
  const parser = Readable.from(chunksOf(input)).pipe(parseCsv({
    columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
    bom: true,
    trim: true,
    skip_empty_lines: true,
    info: true
  }))
  try {
    for await (const row of parser as AsyncIterable<{ record: Record<string, string>, info: { lines: number } }>) {
      const value = Object.fromEntries(Object.entries(row.record).filter(([, v]) => v !== ''))
      yield { location: `Line ${row.info.lines}`, type: 'customer', value }
    }
  } catch (error) {
    const csv = error as CsvError & { lines?: number }
    if (csv.code === undefined) throw error
    throw new ImportRecordError(csv.lines !== undefined ? `Line ${csv.lines}` : 'The file', `not valid CSV (${csv.message}).`)
  }
}

/** The records of `input` in file order. Throws ImportRecordError at the first record that cannot be read. */
export async function * readRecords (input: ImportInput, format: ImportFormat): AsyncGenerator<SourceRecord> {
  if (format === 'jsonl') yield * jsonLines(input)
  else if (format === 'csv') yield * csvRecords(input)
  else yield * documentRecords(await parseDocument(input))
}

/**
 * How many records `input` holds, for progress; null for a stream, which can
 * be read only once. Lines and rows are counted without validating them.
 */
export async function countRecords (input: ImportInput, format: ImportFormat): Promise<number | null> {
  if ('stream' in input) return null
  let count = 0
  if (format === 'jsonl') {
    for await (const [, line] of linesOf(chunksOf(input))) if (line.trim() !== '') count++
    return count
  }
  try {
    for await (const _record of readRecords(input, format)) count++
  } catch (error) {
    if (!(error instanceof ImportRecordError)) throw error
  }
  return count
}

/** The format named, else by extension (`.jsonl`/`.ndjson`, `.csv`), else by content: a first line that is a whole typed record is JSON Lines. */
export async function detectFormat (input: ImportInput, fileName: string | null): Promise<ImportFormat> {
  const extension = extname(fileName ?? ('path' in input ? input.path : '')).toLowerCase()
  if (extension === '.jsonl' || extension === '.ndjson') return 'jsonl'
  if (extension === '.csv') return 'csv'
  if ('stream' in input) return extension === '.json' ? 'json' : 'jsonl'
  const head = await firstLine(input)
  if (!/^\s*[[{]/.test(head)) return 'csv'
  try {
    const value: unknown = JSON.parse(head)
    return isObject(value) && typeof value.type === 'string' ? 'jsonl' : 'json'
  } catch {
    return 'json'
  }
}

async function firstLine (input: ImportInput): Promise<string> {
  for await (const [, line] of linesOf(chunksOf(input))) {
    if (line.trim() !== '') return line
  }
  return ''
}
