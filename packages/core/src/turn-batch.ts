/**
 * Gathers calls into batches, each run by one call of `run`: the calls of one
 * turn of the event loop (a batch starts in `setImmediate`, after everything
 * that became ready together has asked), or all those that queued while the
 * previous batch ran (group commit). So under load one statement serves many
 * callers, and an idle caller waits no longer than the turn. At most `max`
 * items go into one batch; more start the next.
 *
 * A batch starts only after its callers asked, so a read in it reflects what
 * committed before they asked, and a caller's write has committed when its
 * promise resolves. When `run` fails, every caller of its batch gets the error.
 */
export class TurnBatch<In, Out> {
  /** The batch being gathered, not started yet. */
  private gathering: { items: In[], done: Promise<Out[]> } | null = null
  /** The batch under way (callers arriving now join the next one). */
  private inFlight: Promise<unknown> | null = null

  constructor (private readonly run: (items: In[]) => Promise<Out[]>, private readonly max = 256) {}

  /** Adds `item` to the next batch; resolves with its result (the batch's result at its index). */
  add (item: In): Promise<Out> {
    if (this.gathering === null || this.gathering.items.length >= this.max) this.gathering = this.next()
    const index = this.gathering.items.push(item) - 1
    return this.gathering.done.then((results) => results[index] as Out)
  }

  private next (): { items: In[], done: Promise<Out[]> } {
    const items: In[] = []
    const before = this.inFlight
    const batch = { items, done: Promise.resolve([] as Out[]) }
    batch.done = (async () => {
      if (before === null) await new Promise((resolve) => setImmediate(resolve))
      else await before.then(() => undefined, () => undefined)
      if (this.gathering === batch) this.gathering = null
      const running = this.run(items)
      this.inFlight = running
      try {
        return await running
      } finally {
        if (this.inFlight === running) this.inFlight = null
      }
    })()
    return batch
  }
}
