import { useSyncExternalStore } from 'react'

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
