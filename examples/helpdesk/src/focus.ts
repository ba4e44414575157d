/**
 * Where focus goes after something a person did replaced what they were on: the heading of the
 * main pane (a ticket, the form) or of the queue. Headings that can take it carry
 * `data-focus-target` (and `data-focus-key`, what they head: `ticket:12`, `new`, `edit:12`) and
 * `tabIndex={-1}`; a section can carry them instead, and its first heading takes the focus. The one asked for may render a moment later (after a route change or a
 * fetch), so the request waits a little for it.
 */
export type FocusTarget = 'pane' | 'queue'

let wanted: { selector: string; until: number } | null = null

/** Moves focus to `target` (the one heading `key`, if given) now, or once it is on screen. */
export function moveFocus(target: FocusTarget, key?: string): void {
  const selector = `[data-focus-target="${target}"]${key ? `[data-focus-key="${key}"]` : ''}`
  wanted = { selector, until: Date.now() + 2000 }
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

/** Focuses the heading asked for, if it is on screen; heading components call it after render. */
export function applyPendingFocus(): void {
  if (!wanted) return
  if (Date.now() > wanted.until) {
    wanted = null
    return
  }
  const found = document.querySelector<HTMLElement>(wanted.selector)
  // A section marked as a whole (a view whose heading is not ours to mark) gives its heading.
  const element = found?.matches('h1, h2, [tabindex]')
    ? found
    : found?.querySelector<HTMLElement>('h1, h2')
  if (!element || element.closest('[inert]') || element.getClientRects().length === 0) return
  wanted = null
  if (!element.hasAttribute('tabindex')) element.tabIndex = -1
  element.focus()
}
