import { useAsync } from '../hooks.js'
import { loadAgents } from '../data.js'
import { Checkbox, personName } from './ui.js'
import { t } from '../../messages/index.js'

/** When creating a category: which agents get it (`agents` of `POST /categories`). Administrators have every category anyway. */
export function CategoryAgents ({ chosen, onChosen }: { chosen: number[], onChosen: (ids: number[]) => void }) {
  const agents = useAsync(async () => (await loadAgents()).filter((a) => a.role === 2), [])
  const list = agents.data ?? []
  if (list.length === 0) return null
  return (
    <fieldset>
      <legend>{t('categories.agents')}</legend>
      <p class="hint">{t('categories.agentsHint')}</p>
      {list.map((a) => (
        <Checkbox key={a.id} name="agents" label={personName(a)} checked={chosen.includes(a.id)}
          onChange={(value) => { onChosen(value ? [...chosen, a.id] : chosen.filter((id) => id !== a.id)) }} />
      ))}
    </fieldset>
  )
}
