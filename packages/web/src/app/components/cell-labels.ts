import { useLayoutEffect, useRef } from 'preact/hooks'

/**
 * Gives each body cell of a table its column's header as `data-label`, after
 * every render: on a phone the table's rows show as cards, each cell under
 * its label (styles.css), so a screen never grows wider than the viewport.
 */
export function useCellLabels<T extends HTMLTableElement> () {
  const table = useRef<T>(null)
  useLayoutEffect(() => {
    const element = table.current
    if (element === null) return
    const headers = Array.from(element.querySelectorAll('thead th')).map((th) => th.querySelector('.visually-hidden') !== null ? '' : (th.textContent ?? '').trim())
    for (const row of Array.from(element.querySelectorAll('tbody tr'))) {
      Array.from(row.children).forEach((cell, index) => {
        const label = headers[index] ?? ''
        if (label === '') cell.removeAttribute('data-label')
        else cell.setAttribute('data-label', label)
      })
    }
  })
  return table
}
