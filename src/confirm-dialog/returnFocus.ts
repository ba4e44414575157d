/**
 * Whether focus can go back to `element` once the dialog closes: still in the document, shown,
 * enabled and outside any inert region. The page itself (`<body>`) does not count: it is where
 * focus falls when nothing has it, so going back there would lose the person's place.
 */
export function canTakeFocus(element: Element | null | undefined): element is HTMLElement {
  if (!element || !element.isConnected) return false
  const { body, documentElement } = element.ownerDocument
  if (element === body || element === documentElement) return false
  if (typeof (element as HTMLElement).focus !== 'function') return false
  if (element.matches(':disabled') || element.closest('[inert]')) return false
  // Hidden by `display: none` or `content-visibility` (a pane that went away on a phone).
  return typeof element.checkVisibility === 'function' ? element.checkVisibility() : true
}

/**
 * Where focus goes when `dialog` closes: the element that had it before the dialog opened, when
 * it can still take it; else the app's `fallback` (its chat input, its main heading); else
 * nowhere (the browser leaves it on the page). Returns the element chosen, if any.
 */
export function returnFocus(
  dialog: HTMLDialogElement,
  previous: Element | null,
  fallback: (() => HTMLElement | null | undefined) | undefined,
): HTMLElement | undefined {
  // Something that sat inside the dialog while it was open (the devtools) is hidden with it for
  // a moment, until the close moves it back out: it still counts as there.
  const comingBack =
    previous instanceof HTMLElement && previous.isConnected && dialog.contains(previous)
  let target: HTMLElement | undefined
  if (comingBack || canTakeFocus(previous)) target = previous as HTMLElement
  else {
    const chosen = fallback?.()
    if (canTakeFocus(chosen)) target = chosen
  }
  if (!target) return undefined
  target.focus()
  // That element takes focus only once it has moved back out, which the close itself sets off:
  // try again after that.
  if (target.ownerDocument.activeElement !== target) {
    const again = target
    queueMicrotask(() => {
      if (again.isConnected) again.focus()
    })
  }
  return target
}
