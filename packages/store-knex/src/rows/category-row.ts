import type { Category } from '@helpdesk/core'

export const categoryColumns = [
  'id', 'name', 'order', 'thumbnail', 'marketplace_item_id', 'purchase_verification', 'created_at', 'updated_at'
].map((c) => `categories.${c}`)

export function categoryFromRow (row: Category): Category {
  return {
    id: row.id,
    name: row.name,
    order: Number(row.order),
    thumbnail: row.thumbnail ?? null,
    marketplace_item_id: row.marketplace_item_id ?? null,
    purchase_verification: Number(row.purchase_verification),
    created_at: row.created_at,
    updated_at: row.updated_at
  }
}
