/**
 * Where focus goes after something a person did replaced what they were on: the heading of the
 * main pane (a ticket, the form) or of the queue. Headings that can take it carry
 * `data-focus-target` (and `data-focus-key`, what they head: `ticket:12`, `new`, `edit:12`) and
 * `tabIndex={-1}`; a section can carry them instead, and its first heading takes the focus. The
 * one asked for may render a moment later (after a route change or a fetch), so the request waits
 * a little for it.
 */
export type FocusTarget = 'pane' | 'queue'

let wanted: { selector: string; until: number } | null = null
/** What was asked for while the confirmation dialog had focus; the dialog's close decides. */
let askedDuringDialog: string | null = null

const selectorOf = (target: FocusTarget, key?: string) =>
  `[data-focus-target="${target}"]${key ? `[data-focus-key="${key}"]` : ''}`

/**
 * Moves focus to `target` (the one heading `key`, if given) now, or once it is on screen. While
 * the confirmation dialog is open (an approval saved the form, say) the dialog owns focus: the
 * request is kept for {@link focusAfterDialog}, used if the person's place is gone by then.
 */
export function moveFocus(target: FocusTarget, key?: string): void {
  if (document.querySelector('dialog:modal')) {
    askedDuringDialog = selectorOf(target, key)
    return
  }
  askedDuringDialog = null
  wanted = { selector: selectorOf(target, key), until: Date.now() + 2000 }
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
  const element = headingOf(wanted.selector)
  if (!element || !focusable(element)) return
  wanted = null
  element.focus()
}

/** The heading `selector` names, ready to take focus; a section marked as a whole gives its own. */
function headingOf(selector: string): HTMLElement | null {
  const found = document.querySelector<HTMLElement>(selector)
  const element = found?.matches('h1, h2, [tabindex]')
    ? found
    : (found?.querySelector<HTMLElement>('h1, h2') ?? null)
  if (element && !element.hasAttribute('tabindex')) element.tabIndex = -1
  return element
}

/** Whether `element` can take focus now: shown, enabled, and outside the page behind a drawer. */
function focusable(element: HTMLElement | null): element is HTMLElement {
  return (
    element !== null &&
    !element.closest('[inert]') &&
    element.getClientRects().length > 0 &&
    !element.matches(':disabled')
  )
}

/**
 * Where focus goes after the confirmation dialog when the element that had it before is gone
 * (the suggestion that started the request, the form an approval submitted, a Send button
 * replaced by Stop) or cannot take it (hidden, disabled, behind the drawer). In order: the
 * heading the app asked for while the dialog was open (the ticket an approval just saved), the
 * assistant's composer when the assistant is open, the heading of the main pane, the heading of
 * the queue. The dialog gives focus back to the element itself whenever it still can.
 */
export function focusAfterDialog(): HTMLElement | null {
  const asked = askedDuringDialog
  askedDuringDialog = null
  const heading = asked === null ? null : headingOf(asked)
  if (heading && focusable(heading)) return heading
  // Not on screen yet (the saved ticket is a route change away): it takes focus once it renders,
  // like any request of moveFocus; until then focus waits in the next place below.
  if (asked !== null) {
    wanted = { selector: asked, until: Date.now() + 2000 }
    requestAnimationFrame(applyPendingFocus)
  }
  const candidates = [
    document.querySelector<HTMLElement>('#assistant [data-composer]'),
    headingOf(selectorOf('pane')),
    headingOf(selectorOf('queue')),
  ]
  return candidates.find(focusable) ?? null
}
