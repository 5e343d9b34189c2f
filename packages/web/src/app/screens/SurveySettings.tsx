import { useState } from 'preact/hooks'
import { api } from '../api.js'
import { useAction, useAsync } from '../hooks.js'
import { Checkbox, EditorForm, ErrorBanner, Field, Loading, PageHeader, StatusMessage } from '../components/ui.js'
import { t } from '../../messages/index.js'

interface SurveySettings {
  'satisfaction.enabled': boolean
  'satisfaction.question': string
  'satisfaction.good_label': string
  'satisfaction.bad_label': string
  'satisfaction.notify_on_bad': boolean
  'satisfaction.link_days': number
}

const KEYS: Array<keyof SurveySettings> = [
  'satisfaction.enabled', 'satisfaction.question', 'satisfaction.good_label', 'satisfaction.bad_label', 'satisfaction.notify_on_bad', 'satisfaction.link_days'
]

function surveyOf (settings: Record<string, unknown>): SurveySettings {
  return Object.fromEntries(KEYS.map((key) => [key, settings[key]])) as unknown as SurveySettings
}

/** Administrators: the customer-satisfaction survey (on or off, its wording, notifying of bad ratings, how long mailed links work). */
export default function SurveySettingsScreen () {
  const loaded = useAsync(async () => surveyOf((await api.get<{ data: Record<string, unknown> }>('/settings')).data), [])
  const [draft, setDraft] = useState<SurveySettings | null>(null)
  const [days, setDays] = useState<string | null>(null)
  const [done, setDone] = useState('')
  const settings = draft ?? loaded.data
  const save = useAction(async () => {
    if (settings === undefined) return
    const patch = { ...settings, 'satisfaction.link_days': days === null ? settings['satisfaction.link_days'] : Number(days) }
    setDraft(surveyOf((await api.patch<{ data: Record<string, unknown> }>('/settings', patch)).data))
    setDays(null)
    setDone(t('surveySettings.saved'))
  })
  if (settings === undefined) return loaded.error !== undefined ? <ErrorBanner error={loaded.error} /> : <Loading />
  const change = (patch: Partial<SurveySettings>) => { setDraft({ ...settings, ...patch }); setDone('') }
  return (
    <section>
      <PageHeader title={t('surveySettings.title')} />
      <p class="muted">{t('surveySettings.intro')}</p>
      <EditorForm heading={t('surveySettings.form')} creating={false} save={save}>
        {done !== '' ? <StatusMessage message={done} /> : null}
        <Checkbox name="satisfaction-enabled" label={t('surveySettings.enabled')} checked={settings['satisfaction.enabled']} onChange={(on) => { change({ 'satisfaction.enabled': on }) }} />
        <Field label={t('surveySettings.question')} name="satisfaction.question" value={settings['satisfaction.question']} error={save.error} maxLength={250} required
          onValue={(value) => { change({ 'satisfaction.question': value }) }} />
        <Field label={t('surveySettings.goodLabel')} name="satisfaction.good_label" value={settings['satisfaction.good_label']} error={save.error} maxLength={100} required
          onValue={(value) => { change({ 'satisfaction.good_label': value }) }} />
        <Field label={t('surveySettings.badLabel')} name="satisfaction.bad_label" value={settings['satisfaction.bad_label']} error={save.error} maxLength={100} required
          onValue={(value) => { change({ 'satisfaction.bad_label': value }) }} />
        <Checkbox name="satisfaction-notify" label={t('surveySettings.notifyOnBad')} checked={settings['satisfaction.notify_on_bad']} onChange={(on) => { change({ 'satisfaction.notify_on_bad': on }) }} />
        <Field label={t('surveySettings.linkDays')} name="satisfaction.link_days" type="number" value={days ?? String(settings['satisfaction.link_days'])} error={save.error}
          hint={t('surveySettings.linkDaysHint')} onValue={(value) => { setDays(value); setDone('') }} />
      </EditorForm>
    </section>
  )
}
