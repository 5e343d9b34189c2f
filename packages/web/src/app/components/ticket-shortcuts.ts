import { useEffect } from 'preact/hooks'
import { useLocation } from 'wouter-preact'
import { neighbour } from '../ticket-order.js'

/** The control named `name` of the ticket's page, focused (and its panel scrolled into view). */
function focusControl (selector: string): boolean {
  const control = document.querySelector<HTMLElement>(selector)
  if (control === null) return false
  control.focus()
  control.scrollIntoView({ block: 'nearest' })
  return true
}

/** The composer as a reply (`1`) or an internal note (`2`), focused. */
function compose (type: '1' | '2'): boolean {
  const radio = document.querySelector<HTMLInputElement>(`.composer input[name="comment_type"][value="${type}"]`)
  if (radio !== null && !radio.checked) radio.click()
  return focusControl('.composer .rich-text [id]:is(textarea, [contenteditable])')
}

/**
 * The ticket page's shortcuts (listed under `?`): `j` / `k` the next /
 * previous ticket of the inbox's last list, `s` the status, `a` the assigned
 * agent, `r` reply, `n` internal note (staff). Ignored while typing.
 */
export function useTicketShortcuts (id: number, staff: boolean): void {
  const [, navigate] = useLocation()
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null
      if (target !== null && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return
      if (event.ctrlKey || event.metaKey || event.altKey) return
      let handled = false
      if (event.key === 'r') handled = compose('1')
      else if (staff && event.key === 'n') handled = compose('2')
      else if (staff && event.key === 's') handled = focusControl('select[name="status"]')
      else if (staff && event.key === 'a') handled = focusControl('select[name="agent"]')
      else if (staff && (event.key === 'j' || event.key === 'k')) {
        const next = neighbour(id, event.key === 'j' ? 1 : -1)
        if (next !== null) { navigate(`/tickets/${next}`); handled = true }
      }
      if (handled) event.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => { window.removeEventListener('keydown', onKey) }
  }, [id, staff, navigate])
}
