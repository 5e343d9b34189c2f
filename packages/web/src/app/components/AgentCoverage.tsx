import { Checkbox } from './ui.js'
import { t } from '../../messages/index.js'

/** An agent covering all categories, present and future (`PUT /agents/{id}/coverage`). */
export function AgentCoverage ({ checked, onChange }: { checked: boolean, onChange: (value: boolean) => void }) {
  return (
    <div>
      <Checkbox name="all_categories" label={t('agents.allCategories')} checked={checked} onChange={onChange} />
      <p class="hint">{t('agents.allCategoriesHint')}</p>
    </div>
  )
}
