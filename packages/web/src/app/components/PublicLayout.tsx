import type { ComponentChildren } from 'preact'
import { useEffect, useRef } from 'preact/hooks'
import { Link, useLocation } from 'wouter-preact'
import { t } from '../../messages/index.js'

function kbHref (): string {
  return document.querySelector('meta[name="helpdesk-kb"]')?.getAttribute('content') ?? '/kb'
}

/**
 * The frame of the screens of someone not signed in (log in, register, reset a
 * password): small, so that the login screen downloads nothing of the
 * signed-in console (its navigation, live updates and shortcuts are `Layout`).
 */
export function PublicLayout ({ children }: { children: ComponentChildren }) {
  const [location] = useLocation()
  const main = useRef<HTMLElement>(null)
  // Move focus to the new page's content after client-side navigation, as a page load would.
  const first = useRef(true)
  useEffect(() => {
    if (first.current) { first.current = false; return }
    main.current?.focus()
  }, [location])
  const current = (href: string) => location === href ? 'page' : undefined
  return (
    <>
      <a class="skip-link" href="#main">{t('nav.skip')}</a>
      <header class="app-header">
        <div class="brand"><Link href="/">{t('app.name')}</Link></div>
        <nav aria-label={t('nav.label')}>
          <ul>
            <li><Link href="/login" aria-current={current('/login')}>{t('nav.logIn')}</Link></li>
            <li><Link href="/register" aria-current={current('/register')}>{t('nav.register')}</Link></li>
            <li><a href={kbHref()}>{t('nav.publicKb')}</a></li>
          </ul>
        </nav>
      </header>
      <main id="main" ref={main} tabIndex={-1}>{children}</main>
    </>
  )
}
