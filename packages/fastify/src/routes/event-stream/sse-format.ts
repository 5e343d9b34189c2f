import type { AvatarResolver, StreamMessage } from '@helpdesk/core'
import { presentNotification, presentTicketPresence } from '@helpdesk/shapes'

/** Ticket messages are shared by all their receivers: serialised once each. */
const ticketFrames = new WeakMap<StreamMessage, string>()

/** One stream message as Server-Sent Events text (`id:`, `event:`, one `data:` line of JSON). */
export function sseText (message: StreamMessage, avatar: AvatarResolver): string {
  switch (message.kind) {
    case 'ticket': {
      let text = ticketFrames.get(message)
      if (text === undefined) {
        text = frame('ticket', message.data, message.id)
        ticketFrames.set(message, text)
      }
      return text
    }
    case 'notification':
      return frame('notification', presentNotification(message.notification, avatar), message.id)
    case 'unread_count':
      return frame('unread_count', { count: message.count }, message.id)
    case 'reset':
      return frame('reset', { message: message.message })
    case 'presence':
      return frame('presence', presentTicketPresence(message.presence, avatar))
  }
}

function frame (event: string, data: unknown, id?: number): string {
  // JSON.stringify never emits a raw newline, so one data line holds the whole payload.
  return `${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`
}

export const SSE_HEARTBEAT = ': heartbeat\n\n'
