import { plainText, sanitizeBody, slugOf, type Article, type ArticleCollection, type User } from '@helpdesk/core'
import { html, trusted, type SafeHtml } from './html.js'
import { kbMessages as m } from './messages.js'
import type { CollectionWithCategory } from './reader.js'

/** What every page needs: the site, where it is mounted, its public origin, and who reads. */
export interface PageContext {
  site: string
  /** Mount path without trailing slash (`` at the root). */
  base: string
  /** The configured public origin of canonical URLs (`https://host`); null: pages have no canonical link. */
  origin: string | null
  reader: User | null
}

export interface Page {
  title: string
  description: string
  /** Path of the canonical URL (below the mount), or null for pages not to index. */
  canonical: string | null
  body: SafeHtml
}

export function collectionPath (collection: Pick<ArticleCollection, 'id' | 'name'>): string {
  const slug = slugOf(collection.name)
  return `/kb/${collection.id}${slug === '' ? '' : `-${slug}`}`
}

export function articlePath (article: Pick<Article, 'slug'>): string {
  return `/kb/articles/${article.slug}`
}

/** The whole document: landmarks, a skip link, the search form, and the stylesheet file (no inline style or script). */
export function layout (ctx: PageContext, page: Page): string {
  const url = (path: string): string => `${ctx.base}${path}`
  // Never the request's Host: without a configured origin there is no canonical link (and nothing to poison).
  const canonical = page.canonical === null || ctx.origin === null ? null : `${ctx.origin}${ctx.base}${page.canonical}`
  const account = ctx.reader === null
    ? html`<a href="${url('/')}">${m.signIn}</a>`
    : html`<span>${m.signedInAs(`${ctx.reader.first_name} ${ctx.reader.last_name}`.trim())}</span> · <a href="${url('/')}">${m.console}</a>`
  return '<!doctype html>\n' + html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · ${ctx.site}</title>
<meta name="description" content="${page.description}">
${page.canonical === null ? html`<meta name="robots" content="noindex">` : canonical === null ? '' : html`<link rel="canonical" href="${canonical}">`}
<link rel="stylesheet" href="${url('/kb/static/kb.css')}">
</head>
<body>
<a class="skip-link" href="#main">${m.skipToContent}</a>
<header class="site-header">
<div class="wrap">
<a class="site-name" href="${url('/kb')}">${ctx.site} · ${m.knowledgeBase}</a>
<form class="search" role="search" action="${url('/kb/search')}" method="get">
<label for="kb-search">${m.searchLabel}</label>
<input id="kb-search" name="q" type="search" maxlength="200" placeholder="${m.searchLabel}">
<button type="submit">${m.searchButton}</button>
</form>
<p class="account">${account}</p>
</div>
</header>
<main id="main" class="wrap">
${page.body}
</main>
</body>
</html>
`.value
}

export function collectionsPage (ctx: PageContext, collections: CollectionWithCategory[]): Page {
  const groups = new Map<string, CollectionWithCategory[]>()
  for (const collection of collections) {
    const name = collection.category?.name ?? m.otherCategory
    groups.set(name, [...(groups.get(name) ?? []), collection])
  }
  const url = (path: string): string => `${ctx.base}${path}`
  const sections = [...groups].map(([category, items]) => html`<section aria-labelledby="cat-${items[0]?.category_id ?? 0}">
<h2 id="cat-${items[0]?.category_id ?? 0}">${category}</h2>
<ul class="cards">${items.map((c) => html`<li><a href="${url(collectionPath(c))}">${c.name}</a></li>`)}</ul>
</section>`)
  return {
    title: m.knowledgeBase,
    description: m.collectionsDescription(ctx.site),
    canonical: '/kb',
    body: html`<h1>${m.knowledgeBase}</h1>
${sections.length === 0 ? html`<p>${m.noCollections}</p>` : sections}`
  }
}

function breadcrumb (ctx: PageContext, trail: Array<{ label: string, path?: string }>): SafeHtml {
  return html`<nav aria-label="${m.breadcrumb}" class="breadcrumb"><ol>${trail.map((step) => step.path === undefined
    ? html`<li aria-current="page">${step.label}</li>`
    : html`<li><a href="${ctx.base}${step.path}">${step.label}</a></li>`)}</ol></nav>`
}

export function collectionPage (ctx: PageContext, collection: ArticleCollection, articles: Article[]): Page {
  return {
    title: collection.name,
    description: m.collectionDescription(collection.name, articles.length),
    canonical: collectionPath(collection),
    body: html`${breadcrumb(ctx, [{ label: m.knowledgeBase, path: '/kb' }, { label: collection.name }])}
<h1>${collection.name}</h1>
${articles.length === 0
  ? html`<p>${m.noArticles}</p>`
  : html`<ol class="articles">${articles.map((a) => html`<li><a href="${ctx.base}${articlePath(a)}">${a.title}</a><p>${plainText(a.body, 160)}</p></li>`)}</ol>`}`
  }
}

export function articlePage (ctx: PageContext, article: Article, collection: ArticleCollection | null): Page {
  const trail = [{ label: m.knowledgeBase, path: '/kb' }, ...(collection !== null ? [{ label: collection.name, path: collectionPath(collection) }] : []), { label: article.title }]
  const updated = article.updated_at.slice(0, 10)
  return {
    title: article.title,
    description: plainText(article.body, 160) || article.title,
    canonical: articlePath(article),
    body: html`${breadcrumb(ctx, trail)}
<article>
<h1>${article.title}</h1>
<p class="meta">${m.updated} <time datetime="${updated}">${updated}</time></p>
<div class="article-body">${trusted(sanitizeBody(article.body))}</div>
</article>`
  }
}

export function searchPage (ctx: PageContext, q: string, results: Article[]): Page {
  return {
    title: q === '' ? m.searchLabel : m.searchTitle(q),
    description: m.searchLabel,
    canonical: null,
    body: html`<h1>${m.searchLabel}</h1>
<form class="search-large" role="search" action="${ctx.base}/kb/search" method="get">
<label for="kb-search-page">${m.searchLabel}</label>
<input id="kb-search-page" name="q" type="search" value="${q}" maxlength="200">
<button type="submit">${m.searchButton}</button>
</form>
${q === ''
  ? html`<p>${m.searchPrompt}</p>`
  : html`<p role="status">${m.searchResults(results.length, q)}</p>
<ol class="articles">${results.map((a) => html`<li><a href="${ctx.base}${articlePath(a)}">${a.title}</a><p>${plainText(a.body, 160)}</p></li>`)}</ol>`}`
  }
}

export function notFoundPage (ctx: PageContext): Page {
  return {
    title: m.notFoundTitle,
    description: m.notFoundTitle,
    canonical: null,
    body: html`<h1>${m.notFoundTitle}</h1>
<p>${m.notFoundText}</p>
<p><a href="${ctx.base}/kb">${m.backToKb}</a></p>`
  }
}

/** `/sitemap.xml` in parts, so it can be written a page of articles at a time. */
export const sitemapXml = {
  head: '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
  entry: (origin: string, base: string, path: string, lastmod?: string): string =>
    html`<url><loc>${origin}${base}${path}</loc>${lastmod === undefined ? '' : html`<lastmod>${lastmod.slice(0, 10)}</lastmod>`}</url>\n`.value,
  collection: (origin: string, base: string, collection: ArticleCollection): string => sitemapXml.entry(origin, base, collectionPath(collection), collection.updated_at),
  article: (origin: string, base: string, article: Article): string => sitemapXml.entry(origin, base, articlePath(article), article.updated_at),
  tail: '</urlset>\n'
}

export function tooManyRequestsPage (seconds: number): Page {
  return {
    title: m.tooManyTitle,
    description: m.tooManyTitle,
    canonical: null,
    body: html`<h1>${m.tooManyTitle}</h1>
<p>${m.tooManyText(seconds)}</p>`
  }
}
