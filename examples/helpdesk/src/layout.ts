import { useEffect, useRef, useSyncExternalStore } from 'react'
import { useToolmark } from '@toolmark/react'
import { moveFocus } from './focus.ts'
import { navigate, parseRoute } from './route.ts'

/**
 * Below this width the helpdesk shows one pane at a time (the queue, or a ticket or the form) and
 * the assistant as a drawer. The stylesheet's `@media (max-width: 899.98px)` rules match it.
 */
export const NARROW_QUERY = '(max-width: 899.98px)'

/** True on a narrow screen right now. */
export function isNarrow(): boolean {
  return typeof matchMedia === 'function' && matchMedia(NARROW_QUERY).matches
}

function subscribe(onChange: () => void) {
  if (typeof matchMedia !== 'function') return () => {}
  const query = matchMedia(NARROW_QUERY)
  query.addEventListener('change', onChange)
  return () => query.removeEventListener('change', onChange)
}

/** Whether the screen is narrow, kept current as the window is resized or rotated. */
export function useNarrow(): boolean {
  return useSyncExternalStore(subscribe, isNarrow, () => false)
}

/** Whether the person has a message half-typed in the assistant's composer. */
function typingToAssistant(): boolean {
  const composer = document.querySelector<HTMLInputElement>('#assistant [data-composer]')
  return composer !== null && composer.value.trim() !== ''
}

/** Whether a fill's result wrote at least one field. */
function wroteSomething(data: unknown): boolean {
  const changes = (data as { changes?: unknown } | null)?.changes
  return Array.isArray(changes) && changes.length > 0
}

/**
 * On a narrow screen, brings the form an agent just filled into view, so reading what it wrote
 * takes no tap: the new-ticket form that the queue screen keeps out of sight becomes the screen,
 * `hideDrawer` closes the assistant's drawer over it, and focus (and the scroll with it) moves
 * to the form's heading. A drawer holding a message the person is typing stays open (the form
 * waits behind it).
 */
export function useShowFilledForm(hideDrawer: () => void): void {
  const tm = useToolmark()
  const hide = useRef(hideDrawer)
  useEffect(() => {
    hide.current = hideDrawer
  })
  useEffect(
    () =>
      tm.events.on('result', ({ tool, caller, result }) => {
        // A person's own fill is where they are; a tour brings each of its steps into view.
        if (caller === 'human' || caller === 'tour') return
        if (!isNarrow() || !tool.endsWith('.fill')) return
        if (result.status !== 'ok' || !wroteSomething(result.data)) return
        // The queue with nothing selected holds the new-ticket form out of sight.
        if (tool === 'ticket.fill' && parseRoute(window.location.hash).name === 'home') {
          navigate({ name: 'new' })
        }
        // The form is there once the person closes the drawer; what they type is theirs.
        if (typingToAssistant()) return
        hide.current()
        moveFocus('pane')
      }),
    [tm],
  )
}
