import { en } from './en.js'
import type { enConsole } from './en-console.js'
import { interpolate } from './format.js'

/** Every key: the public screens' (`en`) and the signed-in console's (`enConsole`, loaded with its chunk). */
export type MessageKey = keyof typeof en | keyof typeof enConsole

/** English as loaded so far: the public texts, then the console's once `SignedIn` adds them. */
let english: Partial<Record<MessageKey, string>> = en
let translation: Partial<Record<MessageKey, string>> = {}
let catalogue: Partial<Record<MessageKey, string>> = en

/** Swaps the catalogue (a translation keyed like `en` and `enConsole`); missing keys fall back to English. */
export function setCatalogue (messages: Partial<Record<MessageKey, string>>): void {
  translation = messages
  catalogue = { ...english, ...translation }
}

/** Adds texts that load with a later chunk (the signed-in console's). */
export function addMessages (messages: Partial<Record<MessageKey, string>>): void {
  english = { ...english, ...messages }
  catalogue = { ...english, ...translation }
}

/** The message for `key` with `{name}` tokens filled from `params`. */
export function t (key: MessageKey, params?: Record<string, string | number>): string {
  return interpolate(catalogue[key] ?? key, params)
}
