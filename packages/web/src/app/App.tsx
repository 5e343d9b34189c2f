import { Router, Route, Switch, Redirect } from 'wouter-preact'
import { SessionProvider, useSession } from './session.js'
import { Layout } from './components/Layout.js'
import { Loading } from './components/ui.js'
import { lazy } from './components/lazy.js'
import { LoginScreen } from './screens/Login.js'
import { t } from '../messages/index.js'

const Register = lazy(async () => await import('./screens/Register.js'))
const Inbox = lazy(async () => await import('./screens/Inbox.js'))
const TicketView = lazy(async () => await import('./screens/TicketView.js'))
const MyTickets = lazy(async () => await import('./screens/MyTickets.js'))
const NewTicket = lazy(async () => await import('./screens/NewTicket.js'))
const Customers = lazy(async () => await import('./screens/Customers.js'))
const CustomerDetail = lazy(async () => await import('./screens/CustomerDetail.js'))
const Agents = lazy(async () => await import('./screens/Agents.js'))
const Categories = lazy(async () => await import('./screens/Categories.js'))
const Fields = lazy(async () => await import('./screens/Fields.js'))
const CannedResponses = lazy(async () => await import('./screens/CannedResponses.js'))
const KnowledgeBase = lazy(async () => await import('./screens/KnowledgeBase.js'))
const Imports = lazy(async () => await import('./screens/Imports.js'))
const Notifications = lazy(async () => await import('./screens/Notifications.js'))
const Sessions = lazy(async () => await import('./screens/Sessions.js'))
const HeldMail = lazy(async () => await import('./screens/HeldMail.js'))
const Security = lazy(async () => await import('./screens/Security.js'))
const SignInSettings = lazy(async () => await import('./screens/SignInSettings.js'))
const SatisfactionLink = lazy(async () => await import('./screens/SatisfactionLink.js'))
const SurveySettings = lazy(async () => await import('./screens/SurveySettings.js'))
const AuditLog = lazy(async () => await import('./screens/AuditLog.js'))
const Triggers = lazy(async () => await import('./screens/Triggers.js'))
const Automations = lazy(async () => await import('./screens/Automations.js'))
const ForgotPassword = lazy(async () => ({ default: (await import('./screens/Account.js')).ForgotPassword }))
const ResetPassword = lazy(async () => ({ default: (await import('./screens/Account.js')).ResetPassword }))
const MagicLinkRequest = lazy(async () => ({ default: (await import('./screens/Account.js')).MagicLinkRequest }))
const MagicLinkLanding = lazy(async () => ({ default: (await import('./screens/Account.js')).MagicLinkLanding }))
const VerifyEmail = lazy(async () => ({ default: (await import('./screens/Account.js')).VerifyEmail }))

/** The path the console is mounted at, from <base href> (the server plugin rewrites it under a prefix). */
function basePath (): string {
  const path = new URL(document.baseURI).pathname
  return path.replace(/\/+$/, '')
}

function NotFound () {
  return <section><h1>{t('error.notFoundTitle')}</h1><p>{t('error.notFound')}</p></section>
}

function Routes () {
  const { user, isStaff, can } = useSession()

  if (user === undefined) return <Loading label={t('session.checking')} />
  if (user === null) {
    return (
      <Layout>
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
      </Layout>
    )
  }
  const home = isStaff ? '/' : '/portal'
  return (
    <Layout>
      <Switch>
        {/* Keyed so that each redirect mounts anew: wouter's Redirect navigates once, on mount. */}
        <Route path="/login"><Redirect key="from-login" to={home} /></Route>
        <Route path="/register"><Redirect key="from-register" to={home} /></Route>
        <Route path="/">{isStaff ? <Inbox /> : <Redirect key="to-portal" to="/portal" />}</Route>
        <Route path="/tickets/:id">{(params) => <TicketView id={Number(params.id)} />}</Route>
        <Route path="/portal">{isStaff ? <Redirect key="to-inbox" to="/" /> : <MyTickets />}</Route>
        <Route path="/portal/new"><NewTicket /></Route>
        <Route path="/portal/tickets/:id">{(params) => <TicketView id={Number(params.id)} />}</Route>
        <Route path="/notifications"><Notifications /></Route>
        <Route path="/sessions"><Sessions /></Route>
        <Route path="/security"><Security /></Route>
        <Route path="/verify-email"><VerifyEmail /></Route>
        <Route path="/satisfaction"><SatisfactionLink /></Route>
        <Route path="/sign-in/link"><Redirect key="from-link" to={home} /></Route>
        {user.type === 'admin' ? <Route path="/sign-in-settings"><SignInSettings /></Route> : null}
        {user.type === 'admin' ? <Route path="/survey-settings"><SurveySettings /></Route> : null}
        {user.type === 'admin' ? <Route path="/held-mail"><HeldMail /></Route> : null}
        {user.type === 'admin' ? <Route path="/audit-log"><AuditLog /></Route> : null}
        {user.type === 'admin' ? <Route path="/triggers"><Triggers /></Route> : null}
        {user.type === 'admin' ? <Route path="/automations"><Automations /></Route> : null}
        {can('manage_customers') ? <Route path="/customers"><Customers /></Route> : null}
        {can('manage_customers') ? <Route path="/customers/:id">{(params) => <CustomerDetail id={Number(params.id)} />}</Route> : null}
        {user.type === 'admin' ? <Route path="/agents"><Agents /></Route> : null}
        {user.type === 'admin' ? <Route path="/categories"><Categories /></Route> : null}
        {user.type === 'admin' ? <Route path="/fields"><Fields /></Route> : null}
        {isStaff ? <Route path="/canned-responses"><CannedResponses /></Route> : null}
        {can('manage_articles') ? <Route path="/knowledge-base"><KnowledgeBase /></Route> : null}
        {user.type === 'admin' ? <Route path="/imports"><Imports /></Route> : null}
        <Route><NotFound /></Route>
      </Switch>
    </Layout>
  )
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
