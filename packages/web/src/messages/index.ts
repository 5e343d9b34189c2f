import { en, type MessageKey } from './en.js'
import { interpolate } from './format.js'

export type { MessageKey }

let catalogue: Record<MessageKey, string> = en

/** Swaps the catalogue (a translation keyed like `en`); missing keys fall back to English. */
export function setCatalogue (messages: Partial<Record<MessageKey, string>>): void {
  catalogue = { ...en, ...messages }
}

/** The message for `key` with `{name}` tokens filled from `params`. */
export function t (key: MessageKey, params?: Record<string, string | number>): string {
  return interpolate(catalogue[key] ?? key, params)
}
