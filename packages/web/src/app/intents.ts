/** One-shot hints between screens, e.g. "open this ticket with the composer focused" (the `r` shortcut). */
let focusComposerFor: number | null = null

export function requestComposerFocus (ticketId: number): void {
  focusComposerFor = ticketId
}

export function takeComposerFocus (ticketId: number): boolean {
  const wanted = focusComposerFor === ticketId
  focusComposerFor = null
  return wanted
}
