/**
 * Where focus goes after something a person did replaced what they were on: the heading of the
 * main pane (a ticket, the form) or of the queue. Headings that can take it carry
 * `data-focus-target` and `tabIndex={-1}`; the one asked for may render a moment later (after a
 * route change or a fetch), so the request waits a little for it.
 */
export type FocusTarget = 'pane' | 'queue'

let wanted: { target: FocusTarget; until: number } | null = null

const selector = (target: FocusTarget) => `[data-focus-target="${target}"]`

/** Moves focus to `target` now, or as soon as it is on screen (within two seconds). */
export function moveFocus(target: FocusTarget): void {
  wanted = { target, until: Date.now() + 2000 }
  requestAnimationFrame(applyPendingFocus)
}

/**
 * Like {@link moveFocus}, but only when focus was lost (it sits on the page itself because the
 * element that had it went away): never takes focus from where a person is typing.
 */
export function moveFocusIfLost(target: FocusTarget): void {
  requestAnimationFrame(() => {
    const active = document.activeElement
    if (!active || active === document.body || !active.isConnected) moveFocus(target)
  })
}

/** Focuses the target asked for, if it is on screen; heading components call it on mount. */
export function applyPendingFocus(): void {
  if (!wanted) return
  if (Date.now() > wanted.until) {
    wanted = null
    return
  }
  const element = document.querySelector<HTMLElement>(selector(wanted.target))
  if (!element || element.closest('[inert]') || element.getClientRects().length === 0) return
  wanted = null
  element.focus()
}
