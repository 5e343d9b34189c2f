import type { ComponentType } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { Loading, ErrorBanner } from './ui.js'
import { ApiError } from '../api.js'
import { t } from '../../messages/index.js'

/** A route component loaded on first use, so each screen is its own chunk. */
export function lazy<P extends object> (load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  let cached: ComponentType<P> | undefined
  return function LazyScreen (props: P) {
    const [Component, setComponent] = useState<ComponentType<P> | undefined>(() => cached)
    const [failed, setFailed] = useState(false)
    useEffect(() => {
      if (cached !== undefined) return
      load().then((module) => {
        cached = module.default
        setComponent(() => module.default)
      }).catch(() => { setFailed(true) })
    }, [])
    if (failed) return <ErrorBanner error={new ApiError(0, t('error.chunk'))} />
    if (Component === undefined) return <Loading />
    return <Component {...props} />
  }
}
