import { t } from '../../messages/index.js'

/** Escapes text for the preview document. */
function escapeText (value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/** The public page of a published article (`<meta name="helpdesk-kb">` is where the knowledge base is mounted). */
export function publishedHref (slug: string): string {
  const base = document.querySelector('meta[name="helpdesk-kb"]')?.getAttribute('content') ?? '/kb'
  return `${base}/articles/${encodeURIComponent(slug)}`
}

/**
 * The article as it is being written: title and body, in a sandboxed frame
 * (no scripts, its own origin), since the unsaved body has not been through
 * the server's sanitiser yet. The server keeps basic HTML and removes scripts on save.
 */
export function ArticlePreview ({ title, body, slug, published }: { title: string, body: string, slug?: string, published: boolean }) {
  const doc = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeText(title)}</title></head>` +
    `<body><h1>${escapeText(title)}</h1>${body}</body></html>`
  return (
    <section class="article-preview" aria-label={t('kb.preview')}>
      <h4>{t('kb.preview')}</h4>
      <iframe sandbox="" title={t('kb.preview')} srcDoc={doc} class="preview-frame" />
      {published && slug !== undefined
        ? <p><a href={publishedHref(slug)} target="_blank" rel="noopener">{t('kb.viewPublished')}</a></p>
        : <p class="muted">{t('kb.previewUnpublished')}</p>}
    </section>
  )
}
