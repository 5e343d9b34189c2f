import { useMemo, useState } from 'preact/hooks'
import { t } from '../../messages/index.js'

/** The server's image proxy, from `<meta name="helpdesk-remote-images">`; null when the server has it off. */
function imageProxy (): string | null {
  const value = document.querySelector('meta[name="helpdesk-remote-images"]')?.getAttribute('content') ?? ''
  return value === '' ? null : value
}

/**
 * Sanitised body HTML (from the API) with its remote images held back, as a
 * mail client does: an image of this origin (an attachment) stays; one from
 * another host becomes a placeholder with its alt text, or, once `load` is
 * true, goes through the server's proxy. The HTML is parsed in an inert
 * document (DOMParser's loads nothing), so no remote image is requested
 * before the reader asks: a sender's tracking pixel does not learn when, or
 * from where, the message is read. The page's policy (`img-src 'self' data:`)
 * would refuse a direct request anyway.
 */
export function holdRemoteImages (html: string, load: boolean, proxy: string | null): { html: string, remote: number } {
  if (!/<img\b/i.test(html)) return { html, remote: 0 }
  const doc = new DOMParser().parseFromString(html, 'text/html')
  let remote = 0
  for (const img of Array.from(doc.querySelectorAll('img'))) {
    let url: URL | null = null
    try { url = new URL(img.getAttribute('src') ?? '', document.baseURI) } catch {}
    if (url !== null && url.origin === location.origin) continue
    if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      img.removeAttribute('src')
      continue
    }
    remote++
    if (load && proxy !== null) {
      img.setAttribute('src', `${proxy}?url=${encodeURIComponent(url.href)}`)
      continue
    }
    const placeholder = doc.createElement('span')
    placeholder.className = 'remote-image'
    placeholder.textContent = img.getAttribute('alt')?.trim() || t('prose.remoteImage')
    placeholder.title = url.host
    img.replaceWith(placeholder)
  }
  return { html: doc.body.innerHTML, remote }
}

/** A ticket body, comment, note or canned response: remote images wait for "Load remote images". */
export function Prose ({ html }: { html: string }) {
  const [load, setLoad] = useState(false)
  const proxy = imageProxy()
  const shown = useMemo(() => holdRemoteImages(html, load, proxy), [html, load, proxy])
  return (
    <>
      {shown.remote > 0 && !load
        ? (
          <p class="remote-images-note">
            {t(shown.remote === 1 ? 'prose.remoteImageHidden' : 'prose.remoteImagesHidden', { count: shown.remote })}
            {proxy !== null ? <> <button type="button" class="link-button" onClick={() => { setLoad(true) }}>{t('prose.loadRemoteImages')}</button></> : null}
          </p>
          )
        : null}
      <div class="prose" dangerouslySetInnerHTML={{ __html: shown.html }} />
    </>
  )
}
