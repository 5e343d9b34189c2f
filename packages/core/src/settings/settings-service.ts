import { audit } from '../audit/audit-log.js'
import type { ServiceContext } from '../context.js'
import { ensureAdmin } from '../users/user-policy.js'
import type { ActorInput } from '../users/actor.js'
import { checkSettingsPatch, settingsFrom, type Settings } from './settings.js'

/**
 * Administrator settings (see `Settings`): read and changed by administrators
 * through the API, read by the services that follow them. Stored in the
 * database, so every instance sees a change at its next read (reads are not
 * cached: the settings are read on sign-ins, registrations and the like, not
 * on every request).
 */
export class SettingsService {
  constructor (private readonly ctx: ServiceContext) {}

  /** Every setting with its value (stored, else the default): administrators. */
  async get (actor: ActorInput): Promise<Settings> {
    ensureAdmin(actor)
    return await this.current()
  }

  /** Changes the named settings (422 on unknown keys or bad values, nothing written); answers them all. */
  async update (actor: ActorInput, patch: Record<string, unknown>): Promise<Settings> {
    ensureAdmin(actor)
    const values = checkSettingsPatch(patch)
    if (Object.keys(values).length > 0) {
      await this.ctx.store.transaction(async (tx) => {
        const stored = settingsFrom(Object.fromEntries((await tx.settings.all()).map((setting) => [setting.key, setting.value])))
        const before = Object.fromEntries(Object.keys(values).map((key) => [key, stored[key as keyof Settings]]))
        await tx.settings.put(values)
        await audit(tx, actor, { action: 'settings.updated', subject_type: 'settings', before, after: values })
      })
    }
    return await this.current()
  }

  /** The settings as in force now, for the services and trusted callers (no permission check). */
  async current (): Promise<Settings> {
    const stored = await this.ctx.store.settings.all()
    return settingsFrom(Object.fromEntries(stored.map((s) => [s.key, s.value])))
  }
}
