import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks'

export interface TicketSelection {
  /** The selected ticket ids, in the order of the page's rows. */
  ids: number[]
  has: (id: number) => boolean
  /** Whether every row of the page is selected (false on an empty page). */
  all: boolean
  /** Toggles the row at `index`; with `range` (shift-click) every row from the last toggled one to it takes its new state. */
  toggle: (index: number, range: boolean) => void
  /** Selects every row of the page, or clears them all when every one was selected. */
  toggleAll: () => void
  clear: () => void
}

/**
 * Which rows of the inbox's page are selected for a bulk action (issue 35).
 * The selection lives with the page: rows that leave it (another page, a
 * refresh) leave the selection too.
 */
export function useTicketSelection (rowIds: number[]): TicketSelection {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set())
  const anchor = useRef<number | null>(null)
  const key = rowIds.join(',')
  useEffect(() => {
    setSelected((current) => {
      const kept = new Set(rowIds.filter((id) => current.has(id)))
      return kept.size === current.size ? current : kept
    })
    anchor.current = null
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])

  const toggle = useCallback((index: number, range: boolean) => {
    const id = rowIds[index]
    if (id === undefined) return
    setSelected((current) => {
      const next = new Set(current)
      const on = !current.has(id)
      const from = range && anchor.current !== null ? Math.min(anchor.current, index) : index
      const to = range && anchor.current !== null ? Math.max(anchor.current, index) : index
      for (const rowId of rowIds.slice(from, to + 1)) {
        if (on) next.add(rowId)
        else next.delete(rowId)
      }
      return next
    })
    anchor.current = index
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])

  const all = rowIds.length > 0 && rowIds.every((id) => selected.has(id))
  const toggleAll = useCallback(() => {
    setSelected(all ? new Set() : new Set(rowIds))
    anchor.current = null
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, all])
  const clear = useCallback(() => { setSelected(new Set()); anchor.current = null }, [])
  const ids = useMemo(() => rowIds.filter((id) => selected.has(id)), [key, selected])
  return { ids, has: (id) => selected.has(id), all, toggle, toggleAll, clear }
}

/**
 * The inbox's `x` shortcut (listed under `?`): toggles the selection of the
 * focused row (`focused`, the row `j` / `k` move to). Ignored while typing.
 */
export function useSelectionShortcut (selection: TicketSelection, focused: number): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'x' || event.ctrlKey || event.metaKey || event.altKey) return
      const target = event.target as HTMLElement | null
      const typing = target !== null && (target.isContentEditable || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' ||
        (target.tagName === 'INPUT' && (target as HTMLInputElement).type !== 'checkbox'))
      if (typing) return
      event.preventDefault()
      // The row holding the focus (its link or box) when there is one: its focus handler's state may not have rendered yet.
      const row = target?.closest('.ticket-table tbody tr')
      const index = row instanceof HTMLTableRowElement ? row.sectionRowIndex : focused
      selection.toggle(index, false)
    }
    window.addEventListener('keydown', onKey)
    return () => { window.removeEventListener('keydown', onKey) }
  }, [selection, focused])
}
