import { useEffect, useId, useState } from 'preact/hooks'
import { t } from '../../messages/index.js'
import type { Ticket } from '../types.js'

export type Priority = Ticket['priority']

/** Lowest first, as the API ranks them. */
export const PRIORITIES: Priority[] = ['low', 'normal', 'high', 'urgent']

export function priorityLabel (priority: Priority): string {
  return t(`priority.${priority}`)
}

/** The ticket's priority as a badge; `normal` is quiet unless `always`. */
export function PriorityBadge ({ priority, always = false }: { priority: Priority, always?: boolean }) {
  if (priority === 'normal' && !always) return <span class="muted">{priorityLabel(priority)}</span>
  return <span class={`badge badge-priority-${priority}`}>{priorityLabel(priority)}</span>
}

/** Tag names as chips (a list, for screen readers). */
export function TagChips ({ tags }: { tags: Array<{ id: number, name: string }> | undefined }) {
  if (tags === undefined || tags.length === 0) return null
  return (
    <ul class="tag-chips" aria-label={t('tags.label')}>
      {tags.map((tag) => <li key={tag.id} class="tag-chip">{tag.name}</li>)}
    </ul>
  )
}

/** Tag names typed comma-separated, as the API takes them. */
export function tagNamesFrom (text: string): string[] {
  return [...new Set(text.split(',').map((name) => name.trim().toLowerCase()).filter((name) => name !== ''))]
}

/** Edits a ticket's tags: chips with a remove button, and a field adding comma-separated names. */
export function TagEditor ({ tags, onSave }: { tags: Array<{ id: number, name: string }>, onSave: (names: string[]) => void }) {
  const [text, setText] = useState('')
  const inputId = useId()
  useEffect(() => { setText('') }, [tags])
  const names = tags.map((tag) => tag.name)
  return (
    <div class="field">
      <span class="label" id="tag-editor-label">{t('tags.label')}</span>
      {names.length === 0 ? <p class="muted">{t('tags.none')}</p> : null}
      <ul class="tag-chips" aria-labelledby="tag-editor-label">
        {tags.map((tag) => (
          <li key={tag.id} class="tag-chip">
            {tag.name}
            <button type="button" class="tag-remove" aria-label={t('tags.remove', { name: tag.name })} onClick={() => { onSave(names.filter((name) => name !== tag.name)) }}>×</button>
          </li>
        ))}
      </ul>
      <form class="tag-add" onSubmit={(event) => { event.preventDefault(); const added = tagNamesFrom(text); if (added.length > 0) onSave([...new Set([...names, ...added])]) }}>
        <label for={inputId} class="visually-hidden">{t('tags.new')}</label>
        <input id={inputId} name="tags" value={text} placeholder={t('tags.placeholder')} onInput={(event) => { setText((event.target as HTMLInputElement).value) }} />
        <button type="submit">{t('tags.add')}</button>
      </form>
    </div>
  )
}
