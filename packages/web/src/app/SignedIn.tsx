import { Route, Switch, Redirect } from 'wouter-preact'
import { useSession } from './session.js'
import { Layout } from './components/Layout.js'
import { lazy } from './components/lazy.js'
import { addMessages, t } from '../messages/index.js'
import { enConsole } from '../messages/en-console.js'

addMessages(enConsole)

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
const Macros = lazy(async () => await import('./screens/Macros.js'))
const KnowledgeBase = lazy(async () => await import('./screens/KnowledgeBase.js'))
const Imports = lazy(async () => await import('./screens/Imports.js'))
const Notifications = lazy(async () => await import('./screens/Notifications.js'))
const Sessions = lazy(async () => await import('./screens/Sessions.js'))
const HeldMail = lazy(async () => await import('./screens/HeldMail.js'))
const Security = lazy(async () => await import('./screens/Security.js'))
const SignInSettings = lazy(async () => await import('./screens/SignInSettings.js'))
const SatisfactionLink = lazy(async () => await import('./screens/SatisfactionLink.js'))
const SurveySettings = lazy(async () => await import('./screens/SurveySettings.js'))
const Reports = lazy(async () => await import('./screens/Reports.js'))
const Triggers = lazy(async () => await import('./screens/Triggers.js'))
const Automations = lazy(async () => await import('./screens/Automations.js'))
const AuditLog = lazy(async () => await import('./screens/AuditLog.js'))
const SlaSettings = lazy(async () => await import('./screens/SlaSettings.js'))
const VerifyEmail = lazy(async () => ({ default: (await import('./screens/Account.js')).VerifyEmail }))

function NotFound () {
  return <section><h1>{t('error.notFoundTitle')}</h1><p>{t('error.notFound')}</p></section>
}

/** The console of a signed-in person: their navigation and screens (a chunk of its own, loaded after signing in). */
export default function SignedIn () {
  const { user, isStaff, can } = useSession()
  if (user === null || user === undefined) return null
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
        {user.type === 'admin' ? <Route path="/sla-settings"><SlaSettings /></Route> : null}
        {can('manage_customers') ? <Route path="/customers"><Customers /></Route> : null}
        {can('manage_customers') ? <Route path="/customers/:id">{(params) => <CustomerDetail id={Number(params.id)} />}</Route> : null}
        {user.type === 'admin' ? <Route path="/agents"><Agents /></Route> : null}
        {user.type === 'admin' ? <Route path="/categories"><Categories /></Route> : null}
        {user.type === 'admin' ? <Route path="/fields"><Fields /></Route> : null}
        {isStaff ? <Route path="/reports"><Reports /></Route> : null}
        {isStaff ? <Route path="/canned-responses"><CannedResponses /></Route> : null}
        {isStaff ? <Route path="/macros"><Macros /></Route> : null}
        {can('manage_articles') ? <Route path="/knowledge-base"><KnowledgeBase /></Route> : null}
        {user.type === 'admin' ? <Route path="/imports"><Imports /></Route> : null}
        <Route><NotFound /></Route>
      </Switch>
    </Layout>
  )
}
