import { api, type Page } from './api.js'
import type { Category, Agent } from './types.js'

let categories: Promise<Category[]> | undefined

/** Categories with their custom fields, loaded once per page load (they change rarely). */
export async function loadCategories (refresh = false): Promise<Category[]> {
  if (categories === undefined || refresh) {
    categories = api.getAll<Category>('/categories', { include: ['fields'] })
    categories.catch(() => { categories = undefined })
  }
  return await categories
}

/** Agents for the assign control; only administrators may list them, so others get an empty list. */
export async function loadAgents (): Promise<Agent[]> {
  try {
    return (await api.get<Page<Agent>>('/agents', { per_page: 100 })).data
  } catch {
    return []
  }
}
