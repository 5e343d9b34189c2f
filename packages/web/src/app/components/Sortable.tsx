import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { t } from '../../messages/index.js'
import { moveItem } from './sortable-order.js'
import { useCellLabels } from './cell-labels.js'

export interface SortableItem { id: number, name: string }

/**
 * Table rows ordered by drag and drop, with move up/down buttons for keyboard and screen-reader users.
 * `onReorder` receives the ids in their new order.
 */
export function SortableRows<T extends SortableItem> ({ items, onReorder, render }: {
  items: T[]
  onReorder: (ids: number[]) => void
  render: (item: T) => ComponentChildren
}) {
  const [dragged, setDragged] = useState<number | null>(null)
  const [over, setOver] = useState<number | null>(null)
  const reorder = (from: number, to: number) => {
    const next = moveItem(items, from, to)
    if (next !== items) onReorder(next.map((item) => item.id))
  }
  return (
    <>
      {items.map((item, index) => (
        <tr
          key={item.id}
          draggable
          class={`${dragged === index ? 'dragging' : ''}${over === index && dragged !== index ? ' drop-target' : ''}`}
          onDragStart={(e) => { setDragged(index); e.dataTransfer?.setData('text/plain', String(item.id)) }}
          onDragOver={(e) => { e.preventDefault(); setOver(index) }}
          onDragEnd={() => { setDragged(null); setOver(null) }}
          onDrop={(e) => { e.preventDefault(); if (dragged !== null) reorder(dragged, index); setDragged(null); setOver(null) }}
        >
          <td class="drag-handle" aria-hidden="true">⠿</td>
          {render(item)}
          <td>
            <div class="row-actions">
              <button type="button" disabled={index === 0} aria-label={t('common.moveUp', { name: item.name })} onClick={() => { reorder(index, index - 1) }}>↑</button>
              <button type="button" disabled={index === items.length - 1} aria-label={t('common.moveDown', { name: item.name })} onClick={() => { reorder(index, index + 1) }}>↓</button>
            </div>
          </td>
        </tr>
      ))}
    </>
  )
}

/**
 * A table of SortableRows: a leading drag-handle column and a trailing move-buttons column around `columns`
 * (the headers of what `render` returns).
 */
export function SortableTable<T extends SortableItem> ({ label, columns, items, onReorder, render }: {
  label: string
  columns: string[]
  items: T[]
  onReorder: (ids: number[]) => void
  render: (item: T) => ComponentChildren
}) {
  const table = useCellLabels()
  return (
    <table class="data-table" aria-label={label} ref={table}>
      <thead><tr><th scope="col"><span class="visually-hidden">{t('categories.order')}</span></th>{columns.map((column) => <th key={column} scope="col">{column}</th>)}<th scope="col">{t('categories.order')}</th></tr></thead>
      <tbody>
        <SortableRows items={items} onReorder={onReorder} render={render} />
      </tbody>
    </table>
  )
}
