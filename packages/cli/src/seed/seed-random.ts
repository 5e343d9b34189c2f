/**
 * A small seeded pseudo-random generator (sfc32), so `helpdesk seed --seed N`
 * writes the same data on every run and every machine.
 */
export class SeededRandom {
  private a: number
  private b: number
  private c: number
  private d: number

  constructor (seed: number) {
    this.a = 0x9e3779b9
    this.b = 0x243f6a88
    this.c = 0xb7e15162
    this.d = seed >>> 0
    for (let i = 0; i < 15; i++) this.next()
  }

  /** A float in [0, 1). */
  next (): number {
    this.a >>>= 0; this.b >>>= 0; this.c >>>= 0; this.d >>>= 0
    let t = (this.a + this.b) | 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) | 0
    this.c = (this.c << 21) | (this.c >>> 11)
    this.d = (this.d + 1) | 0
    t = (t + this.d) | 0
    this.c = (this.c + t) | 0
    return (t >>> 0) / 4294967296
  }

  /** An integer in [min, max]. */
  int (min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  chance (probability: number): boolean {
    return this.next() < probability
  }

  pick<T> (items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T
  }

  /** An index in [0, n) where small indexes are much likelier (Zipf-like, exponent ~1). */
  skewed (n: number): number {
    return Math.min(n - 1, Math.floor(Math.exp(this.next() * Math.log(n + 1)) - 1))
  }
}

/**
 * Picks from a list with Zipf-like weights (the first items most often), in
 * O(log n) per pick: what makes some words common and most rare, as in real text.
 */
export class WeightedPicker<T> {
  private readonly cumulative: number[] = []
  private readonly total: number

  constructor (private readonly items: readonly T[], exponent = 1) {
    let sum = 0
    items.forEach((_, i) => { sum += 1 / Math.pow(i + 1, exponent); this.cumulative.push(sum) })
    this.total = sum
  }

  pick (random: SeededRandom): T {
    const target = random.next() * this.total
    let low = 0
    let high = this.cumulative.length - 1
    while (low < high) {
      const mid = (low + high) >> 1
      if ((this.cumulative[mid] as number) < target) low = mid + 1
      else high = mid
    }
    return this.items[low] as T
  }
}
