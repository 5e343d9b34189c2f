import { useAction, useAsync } from '../hooks.js'
import { api } from '../api.js'
import { t } from '../../messages/index.js'

/** The header's "away" switch for staff: assignment rules skip an away agent and hand their open tickets over. */
export function AwaySwitch () {
  const state = useAsync(async () => (await api.get<{ data: { available: boolean } }>('/auth/me/availability')).data, [])
  const toggle = useAction(async () => {
    await api.put('/auth/me/availability', { available: !(state.data?.available ?? true) })
    state.reload()
  })
  if (state.data === undefined) return null
  const away = !state.data.available
  return (
    <button type="button" class="link-button" aria-pressed={away} disabled={toggle.pending} onClick={() => { void toggle.run() }}>
      {away ? t('away.on') : t('away.off')}
    </button>
  )
}
