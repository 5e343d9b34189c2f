import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { api, type Page } from '../api.js'
import { useAction, useAsync, type Async } from '../hooks.js'
import { subscribeToTickets } from '../live.js'
import { Checkbox, ErrorBanner, Field } from './ui.js'
import { t, type MessageKey } from '../../messages/index.js'
import type { TicketListView } from '../types.js'

/** Counts refresh at most this often while tickets change. */
export const COUNTS_EVERY_MS = 2000

/** How a view is named in the inbox's URL (`?view=mine`, `?view=12`). */
export function viewParam (view: Pick<TicketListView, 'id' | 'key'>): string {
  return view.key ?? String(view.id)
}

export function findView (views: TicketListView[] | undefined, param: string): TicketListView | undefined {
  return param === '' ? undefined : views?.find((view) => viewParam(view) === param)
}

/**
 * The views the agent may use, with their counts, reloaded when tickets change (throttled: at most every
 * two seconds, the last change always counted).
 */
export function useViews (): Async<TicketListView[]> {
  const views = useAsync(async () => (await api.get<Page<TicketListView>>('/views', { include: ['count'], per_page: 100 })).data, [])
  const { reload } = views
  useEffect(() => {
    let last = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    const stop = subscribeToTickets(() => {
      if (timer !== undefined) return
      const wait = Math.max(0, last + COUNTS_EVERY_MS - Date.now())
      timer = setTimeout(() => { timer = undefined; last = Date.now(); reload() }, wait)
    })
    return () => { stop(); if (timer !== undefined) clearTimeout(timer) }
  }, [reload])
  return views
}

function viewName (view: TicketListView): string {
  return view.key !== null ? t(`views.builtIn.${view.key}` as MessageKey) : view.name
}

interface ViewsNavProps {
  views: Async<TicketListView[]>
  /** The `view` of the URL ('' for none). */
  current: string
  onSelect: (view: TicketListView | null) => void
  /** The list's filters and sort now, as `GET /tickets` takes them: what "Save view" saves. */
  saveable: { filters: Record<string, string>, sort: string }
  userId: number | undefined
}

/** The inbox's views with their counts: built-in, shared and the agent's own; save the current filters as a view, rename or delete one's own. */
export function ViewsNav ({ views, current, onSelect, saveable, userId }: ViewsNavProps) {
  const [editing, setEditing] = useState<TicketListView | 'new' | null>(null)
  const [name, setName] = useState('')
  const [shared, setShared] = useState(false)
  const nameInput = useRef<HTMLDivElement>(null)
  const open = useCallback((target: TicketListView | 'new') => {
    setEditing(target)
    setName(target === 'new' ? '' : target.name)
    setShared(target === 'new' ? false : target.shared)
  }, [])
  useEffect(() => { if (editing !== null) nameInput.current?.querySelector('input')?.focus() }, [editing])
  const save = useAction(async () => {
    const saved = editing === 'new'
      ? await api.post<{ data: TicketListView }>('/views', { name: name.trim(), shared, ...saveable })
      : await api.patch<{ data: TicketListView }>(`/views/${(editing as TicketListView).id}`, { name: name.trim(), shared })
    setEditing(null)
    views.reload()
    if (editing === 'new') onSelect(saved.data)
  })
  const remove = useAction(async (view: TicketListView) => {
    await api.delete(`/views/${view.id}`)
    if (viewParam(view) === current) onSelect(null)
    views.reload()
  })
  const list = views.data ?? []

  return (
    <nav class="views-nav" aria-label={t('views.label')}>
      <ul>
        <li>
          <button type="button" class="view-link" aria-current={current === '' ? 'page' : undefined} onClick={() => { onSelect(null) }}>{t('views.none')}</button>
        </li>
        {list.map((view) => {
          const label = viewName(view)
          return (
            <li key={view.id}>
              <button type="button" class="view-link" aria-current={viewParam(view) === current ? 'page' : undefined} onClick={() => { onSelect(view) }}
                data-view={viewParam(view)}>
                <span class="view-name">{label}</span>
                {view.shared && !view.built_in ? <span class="view-shared" title={t('views.sharedHint')}> · {t('views.shared')}</span> : null}
                {typeof view.count === 'number'
                  ? <span class="view-count">{view.count}{view.count_is_lower_bound === true ? '+' : ''}<span class="visually-hidden"> {t('views.countLabel')}</span></span>
                  : null}
              </button>
              {!view.built_in && view.user_id === userId
                ? (
                  <span class="view-actions">
                    <button type="button" class="link-button" aria-label={t('views.rename', { name: label })} onClick={() => { open(view) }}>{t('views.renameShort')}</button>
                    <button type="button" class="link-button" aria-label={t('views.delete', { name: label })}
                      onClick={() => { if (window.confirm(t('views.deleteConfirm', { name: label }))) void remove.run(view) }}>{t('views.deleteShort')}</button>
                  </span>
                  )
                : null}
            </li>
          )
        })}
      </ul>
      <ErrorBanner error={views.error ?? remove.error} />
      {editing === null
        ? <button type="button" class="save-view" onClick={() => { open('new') }}>{t('views.save')}</button>
        : (
          <form class="view-form" aria-label={editing === 'new' ? t('views.save') : t('views.renameShort')} onSubmit={(e) => { e.preventDefault(); void save.run() }}>
            <div ref={nameInput}>
              <Field label={t('views.name')} name="name" value={name} onValue={setName} error={save.error} required maxLength={100} />
            </div>
            <Checkbox label={t('views.shareWithTeam')} name="shared" checked={shared} onChange={setShared} />
            {save.error !== undefined && save.error.fieldError('name') === undefined ? <ErrorBanner error={save.error} /> : null}
            <button type="submit" disabled={save.pending}>{t('views.saveButton')}</button>
            <button type="button" class="secondary" onClick={() => { setEditing(null) }}>{t('views.cancel')}</button>
          </form>
          )}
    </nav>
  )
}
