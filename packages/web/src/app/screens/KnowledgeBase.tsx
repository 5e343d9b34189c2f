import { useState } from 'preact/hooks'
import { api, type Page } from '../api.js'
import { foldFieldErrors } from '../api-errors.js'
import { useAction, useAsync, useOrderedList } from '../hooks.js'
import { parseTagList } from '../text.js'
import { loadCategories } from '../data.js'
import { Field, ErrorBanner, PageHeader, DateTime, ListStatus, ItemButton, EditDeleteActions } from '../components/ui.js'
import { SortableTable } from '../components/Sortable.js'
import { ArticlePreview } from '../components/ArticlePreview.js'
import { RichTextField } from '../components/RichText.js'
import { t, type MessageKey } from '../../messages/index.js'
import type { Article, Category, Collection } from '../types.js'

const visibilities = [1, 2, 3, 4]

function CollectionForm ({ categories, collection, onSaved, onCancel }: { categories: Category[], collection?: Collection, onSaved: () => void, onCancel?: () => void }) {
  const [name, setName] = useState(collection?.name ?? '')
  const [category, setCategory] = useState(String(collection?.category_id ?? categories[0]?.id ?? ''))
  const [visibility, setVisibility] = useState(String(collection?.visibility ?? 1))
  const save = useAction(async () => {
    const body = { name, category_id: Number(category), visibility: Number(visibility) }
    if (collection === undefined) await api.post('/article-collections', body)
    else await api.post(`/article-collections/${collection.id}`, body)
    if (collection === undefined) setName('')
    onSaved()
  })
  const heading = collection === undefined ? t('kb.createCollection') : t('kb.editCollection', { name: collection.name })
  return (
    <form class="panel" aria-label={heading} onSubmit={(e) => { e.preventDefault(); void save.run() }} noValidate>
      <h2>{heading}</h2>
      <ErrorBanner error={save.error} />
      <Field label={t('kb.collectionName')} name="name" value={name} onValue={setName} error={save.error} required />
      <Field label={t('kb.category')} name="category_id" value={category} onValue={setCategory} error={save.error} options={categories.map((c) => ({ value: String(c.id), label: c.name }))} />
      <Field label={t('kb.visibility')} name="visibility" value={visibility} onValue={setVisibility} error={save.error} options={visibilities.map((v) => ({ value: String(v), label: t(`kb.visibility.${v}` as MessageKey) }))} />
      <div class="row-actions">
        <button type="submit" class="primary" disabled={save.pending}>{collection === undefined ? t('common.create') : t('common.save')}</button>
        {onCancel !== undefined ? <button type="button" onClick={onCancel}>{t('common.cancel')}</button> : null}
      </div>
    </form>
  )
}

function ArticleForm ({ collection, article, onSaved, onCancel }: { collection: Collection, article?: Article, onSaved: () => void, onCancel: () => void }) {
  const [title, setTitle] = useState(article?.title ?? '')
  const [body, setBody] = useState(article?.body ?? '')
  const [status, setStatus] = useState(article === undefined || article.published_at === null ? 'draft' : 'published')
  const [tags, setTags] = useState((article?.tags ?? []).map((tag) => tag.name).join(', '))
  const save = useAction(async () => {
    const payload = { title, body, status, category: collection.category_id, collection: collection.id, tags: parseTagList(tags) }
    await api.save('/articles', article, payload)
    onSaved()
  })
  const heading = article === undefined ? t('kb.createArticle') : t('kb.editArticle', { name: article.title })
  return (
    <form class="panel" aria-label={heading} onSubmit={(e) => { e.preventDefault(); void save.run() }} noValidate>
      <h3>{heading}</h3>
      <ErrorBanner error={save.error} />
      <Field label={t('kb.articleTitle')} name="title" value={title} onValue={setTitle} error={save.error} maxLength={250} required />
      <RichTextField label={t('kb.articleBody')} name="body" value={body} onChange={setBody} error={save.error} hint={t('kb.articleBodyHint')} headings required />
      <Field label={t('kb.tags')} name="tags" value={tags} onValue={setTags} error={foldFieldErrors(save.error, 'tags')} hint={t('kb.tagsHint')} />
      <Field label={t('kb.status')} name="status" value={status} onValue={setStatus} error={save.error}
        options={[{ value: 'draft', label: t('kb.draft') }, { value: 'published', label: t('kb.published') }]} />
      <ArticlePreview title={title} body={body} slug={article?.slug} published={article !== undefined && article.published_at !== null} />
      <div class="row-actions">
        <button type="submit" class="primary" disabled={save.pending}>{t('common.save')}</button>
        <button type="button" onClick={onCancel}>{t('common.cancel')}</button>
      </div>
    </form>
  )
}

function Articles ({ collection, onChanged }: { collection: Collection, onChanged: () => void }) {
  const articles = useAsync(async () => (await api.get<Page<Article>>('/articles', { filter: { collection: collection.id }, include: ['tags'], sort: 'order', per_page: 100 })).data, [collection.id])
  const [editing, setEditing] = useState<number | 'new' | null>(null)
  const { done, setDone, order, remove } = useOrderedList<Article>({ path: '/articles', nameOf: (a) => a.title, reload: articles.reload, onDeleted: onChanged })
  const items = (articles.data ?? []).map((a) => ({ ...a, name: a.title }))
  const current = items.find((a) => a.id === editing)
  const saved = () => { setEditing(null); setDone(t('common.saved')); articles.reload(); onChanged() }
  return (
    <section class="panel" aria-labelledby="articles-title">
      <h2 id="articles-title">{t('kb.articlesOf', { name: collection.name })}</h2>
      <ListStatus error={articles.error ?? order.error ?? remove.error} done={done} loading={articles.data === undefined} />
      {items.length === 0 && articles.data !== undefined ? <p class="muted">{t('kb.noArticles')}</p> : null}
      <SortableTable label={t('kb.articlesOf', { name: collection.name })} columns={[t('kb.articleTitle'), t('kb.status'), t('common.actions')]}
        items={items} onReorder={(ids) => { void order.run(ids) }} render={(a) => (
          <>
            <td>{a.title}{(a.tags ?? []).length > 0 ? <span class="muted"> · {t('kb.tagged', { tags: (a.tags ?? []).map((tag) => tag.name).join(', ') })}</span> : null}</td>
            <td>{a.published_at === null ? <span class="badge">{t('kb.draft')}</span> : <span class="badge badge-status-1">{t('kb.published')}</span>} <span class="muted"><DateTime value={a.updated_at} /></span></td>
            <td><EditDeleteActions name={a.title} onEdit={() => { setEditing(a.id) }} onDelete={() => { void remove.run(a) }} /></td>
          </>
        )} />
      {editing === null ? <button type="button" class="primary" onClick={() => { setEditing('new') }}>{t('kb.createArticle')}</button> : null}
      {editing === 'new' ? <ArticleForm collection={collection} onSaved={saved} onCancel={() => { setEditing(null) }} /> : null}
      {current !== undefined ? <ArticleForm key={current.id} collection={collection} article={current} onSaved={saved} onCancel={() => { setEditing(null) }} /> : null}
    </section>
  )
}

export default function KnowledgeBase () {
  const collections = useAsync(async () => (await api.get<Page<Collection>>('/article-collections', { include: ['articles-count'], sort: 'order', per_page: 100 })).data, [])
  const categories = useAsync(async () => await loadCategories(), [])
  const [selected, setSelected] = useState<number | null>(null)
  const [editing, setEditing] = useState<number | null>(null)
  const { done, setDone, order, remove } = useOrderedList<Collection>({
    path: '/article-collections',
    nameOf: (c) => c.name,
    reload: collections.reload,
    onDeleted: (collection) => { if (selected === collection.id) setSelected(null) }
  })
  const items = collections.data ?? []
  const current = items.find((c) => c.id === selected)
  const editingCollection = items.find((c) => c.id === editing)
  return (
    <section>
      <PageHeader title={t('kb.title')} />
      <ListStatus error={collections.error ?? order.error ?? remove.error} done={done} loading={collections.data === undefined} />
      <p class="hint">{t('common.dragHint')}</p>
      <SortableTable label={t('kb.collections')} columns={[t('kb.collectionName'), t('kb.visibility'), t('kb.articles'), t('common.actions')]}
        items={items} onReorder={(ids) => { void order.run(ids) }} render={(c) => (
          <>
            <td>{c.name}</td>
            <td>{t(`kb.visibility.${c.visibility}` as MessageKey)}</td>
            <td>{c.articles_count ?? ''}</td>
            <td><div class="row-actions">
              <ItemButton label={t('kb.openCollection')} name={c.name} aria-pressed={selected === c.id} onClick={() => { setSelected(c.id) }} />
              <ItemButton label={t('common.edit')} name={c.name} aria-expanded={editing === c.id} onClick={() => { setEditing(editing === c.id ? null : c.id) }} />
              <ItemButton label={t('common.delete')} name={c.name} class="danger" onClick={() => { void remove.run(c) }} />
            </div></td>
          </>
        )} />
      {editingCollection !== undefined && categories.data !== undefined
        ? <CollectionForm key={editingCollection.id} categories={categories.data} collection={editingCollection}
            onSaved={() => { setEditing(null); setDone(t('common.saved')); collections.reload() }} onCancel={() => { setEditing(null) }} />
        : null}
      {current !== undefined ? <Articles key={current.id} collection={current} onChanged={collections.reload} /> : null}
      {categories.data !== undefined ? <CollectionForm categories={categories.data} onSaved={() => { setDone(t('common.saved')); collections.reload() }} /> : null}
    </section>
  )
}
