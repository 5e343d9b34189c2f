import { useEffect, useRef } from 'preact/hooks'
import { t } from '../../messages/index.js'

/** The keyboard shortcut panel (`?`), a native modal <dialog>: focus is trapped and Escape closes it. */
export function HelpDialog ({ open, onClose }: { open: boolean, onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const element = dialog.current
    if (element === null) return
    if (open && !element.open) element.showModal()
    if (!open && element.open) element.close()
  }, [open])
  return (
    <dialog ref={dialog} class="help-dialog" aria-labelledby="help-title" onClose={onClose}>
      <h2 id="help-title">{t('help.title')}</h2>
      <h3>{t('help.inInbox')}</h3>
      <dl>
        <dt><kbd>j</kbd> / <kbd>k</kbd></dt><dd>{t('help.move')}</dd>
        <dt><kbd>{t('help.key.enter')}</kbd></dt><dd>{t('help.open')}</dd>
        <dt><kbd>r</kbd></dt><dd>{t('help.reply')}</dd>
        <dt><kbd>x</kbd></dt><dd>{t('help.toggleSelection')}</dd>
        <dt><kbd>/</kbd></dt><dd>{t('help.search')}</dd>
      </dl>
      <h3>{t('help.onTicket')}</h3>
      <dl>
        <dt><kbd>j</kbd> / <kbd>k</kbd></dt><dd>{t('help.nextTicket')}</dd>
        <dt><kbd>s</kbd></dt><dd>{t('help.status')}</dd>
        <dt><kbd>a</kbd></dt><dd>{t('help.assign')}</dd>
        <dt><kbd>r</kbd> / <kbd>n</kbd></dt><dd>{t('help.replyNote')}</dd>
      </dl>
      <dl>
        <dt><kbd>?</kbd></dt><dd>{t('help.help')}</dd>
        <dt><kbd>{t('help.key.escape')}</kbd></dt><dd>{t('help.close')}</dd>
      </dl>
      <button type="button" onClick={onClose}>{t('common.close')}</button>
    </dialog>
  )
}
