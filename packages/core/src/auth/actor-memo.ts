/*
 * Data about the caller that changes only with the auth revision (an agent's
 * categories), remembered on the user object the token cache hands out. The
 * cache replaces that object whenever the revision moves, so a memo never
 * outlives what it remembers; users from anywhere else are never memoised.
 */
const memos = new WeakMap<object, Map<string, Promise<unknown>>>()

/** Lets `rememberForActor` keep values on `actor` (the token cache's users only). */
export function allowActorMemo (actor: object): void {
  if (!memos.has(actor)) memos.set(actor, new Map())
}

/** `load()`'s value, remembered on `actor` when it allows memos; a failed load is forgotten. */
export async function rememberForActor<T> (actor: object, key: string, load: () => Promise<T>): Promise<T> {
  const memo = memos.get(actor)
  if (memo === undefined) return await load()
  let value = memo.get(key) as Promise<T> | undefined
  if (value === undefined) {
    value = load()
    memo.set(key, value)
    value.catch(() => { memo.delete(key) })
  }
  return await value
}
