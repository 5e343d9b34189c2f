import type { TestApp } from './helpers.js'
import { expectStatus } from './http-assertions.js'

/** `GET /notifications` (with `query`, e.g. `?filter[read]=0`) as the holder of `token`: the page's items. */
export async function notificationsOf (h: TestApp, token: string, query = ''): Promise<Array<Record<string, any>>> {
  return expectStatus(await h.inject({ method: 'GET', url: `/api/v1/notifications${query}`, token }), 200).data
}

/** The types of the holder's notifications, newest first. */
export async function notificationTypes (h: TestApp, token: string): Promise<string[]> {
  return (await notificationsOf(h, token)).map((n) => n.type as string)
}
