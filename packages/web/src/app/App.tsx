import { Router, Route, Switch } from 'wouter-preact'
import { SessionProvider, useSession } from './session.js'
import { PublicLayout } from './components/PublicLayout.js'
import { Loading } from './components/ui.js'
import { lazy } from './components/lazy.js'
import { LoginScreen } from './screens/Login.js'
import { t } from '../messages/index.js'

const Register = lazy(async () => await import('./screens/Register.js'))
const SatisfactionLink = lazy(async () => await import('./screens/SatisfactionLink.js'))
const ForgotPassword = lazy(async () => ({ default: (await import('./screens/Account.js')).ForgotPassword }))
const ResetPassword = lazy(async () => ({ default: (await import('./screens/Account.js')).ResetPassword }))
const MagicLinkRequest = lazy(async () => ({ default: (await import('./screens/Account.js')).MagicLinkRequest }))
const MagicLinkLanding = lazy(async () => ({ default: (await import('./screens/Account.js')).MagicLinkLanding }))
const VerifyEmail = lazy(async () => ({ default: (await import('./screens/Account.js')).VerifyEmail }))
// Everything of a signed-in person (the navigation's screens and their routes): not part of the login screen's download.
const SignedIn = lazy(async () => await import('./SignedIn.js'))

/** The path the console is mounted at, from <base href> (the server plugin rewrites it under a prefix). */
function basePath (): string {
  const path = new URL(document.baseURI).pathname
  return path.replace(/\/+$/, '')
}

function Routes () {
  const { user } = useSession()

  if (user === undefined) return <Loading label={t('session.checking')} />
  if (user === null) {
    return (
      <PublicLayout>
        <Switch>
          <Route path="/register"><Register /></Route>
          <Route path="/forgot-password"><ForgotPassword /></Route>
          <Route path="/reset-password"><ResetPassword /></Route>
          <Route path="/sign-in/email"><MagicLinkRequest /></Route>
          <Route path="/sign-in/link"><MagicLinkLanding /></Route>
          <Route path="/verify-email"><VerifyEmail /></Route>
          <Route path="/satisfaction"><SatisfactionLink /></Route>
          <Route><LoginScreen /></Route>
        </Switch>
      </PublicLayout>
    )
  }
  return <SignedIn />
}

export function App () {
  return (
    <Router base={basePath()}>
      <SessionProvider>
        <Routes />
      </SessionProvider>
    </Router>
  )
}
