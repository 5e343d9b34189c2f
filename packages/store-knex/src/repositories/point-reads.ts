/** Ids a batch asks for at most: one bound array, well within what one statement should carry. */
const IDS_PER_BATCH = 500

/** The largest id an `integer` column holds: a larger one matches no row (and must not fail its batch's statement). */
const MAX_INTEGER_ID = 2_147_483_647

interface Batch<Row> { ids: Set<number>, rows: Promise<Map<number, Row>> }

/**
 * Reads of single rows by id, gathered per turn of the event loop into one
 * statement: every caller of a turn joins the batch that starts in
 * `setImmediate`, after the requests whose bytes arrived together have all
 * asked. A batch starts only after each of its callers asked, so a caller
 * sees every change committed before it asked (as with a statement of its
 * own); a caller arriving once a batch has started joins the next one.
 *
 * Where a statement is a round trip (PostgreSQL), a busy server pays one for
 * a turn's ticket views instead of one each; with one request in flight it
 * costs nothing but the `setImmediate`. An id no row can have is answered
 * without asking, so one request's malformed id never fails the others'.
 */
export class PointReads<Row> {
  private gathering: Batch<Row> | null = null

  constructor (
    private readonly load: (ids: number[]) => Promise<Row[]>,
    private readonly idOf: (row: Row) => number
  ) {}

  async get (id: number): Promise<Row | null> {
    if (!Number.isInteger(id) || id < 1 || id > MAX_INTEGER_ID) return null
    const batch = this.gathering ?? this.open()
    batch.ids.add(id)
    if (batch.ids.size >= IDS_PER_BATCH) this.gathering = null
    return (await batch.rows).get(id) ?? null
  }

  private open (): Batch<Row> {
    const ids = new Set<number>()
    const rows = new Promise((resolve) => setImmediate(resolve)).then(async () => {
      if (this.gathering === batch) this.gathering = null
      const found = await this.load([...ids])
      return new Map(found.map((row) => [this.idOf(row), row]))
    })
    const batch: Batch<Row> = { ids, rows }
    this.gathering = batch
    return batch
  }
}
