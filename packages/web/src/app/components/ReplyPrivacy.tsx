import { api } from '../api.js'
import { useAction } from '../hooks.js'
import { ErrorBanner } from './ui.js'
import { t } from '../../messages/index.js'
import type { Comment } from '../types.js'

/** A reply's privacy: its state for everyone, and for staff a toggle (PUT makes it public, DELETE private). */
export function ReplyPrivacy ({ comment, staff, onChanged }: { comment: Comment, staff: boolean, onChanged: () => void }) {
  const toggle = useAction(async () => {
    if (comment.private) await api.put(`/comments/${comment.id}/privacy`)
    else await api.delete(`/comments/${comment.id}/privacy`)
    onChanged()
  })
  if (!staff) return comment.private ? <span class="badge">{t('thread.privateReply')}</span> : null
  return (
    <>
      <span class="badge">{comment.private ? t('thread.privateReply') : t('thread.publicReply')}</span>
      {' '}
      <button type="button" class="link-button" disabled={toggle.pending} onClick={() => { void toggle.run() }}>
        {comment.private ? t('thread.makePublic') : t('thread.makePrivate')}
      </button>
      <ErrorBanner error={toggle.error} />
    </>
  )
}
