'use client'
import { useCallback, useRef, type Ref, type RefCallback, type RefObject } from 'react'

/**
 * One callback ref that fills our own ref object and the consumer's ref (an object or a
 * callback). A consumer callback that returns a cleanup (React 19) gets that cleanup called
 * instead of being called with `null`, on React 18 and 19 alike.
 */
export function useComposedRef<T>(
  own: RefObject<T | null>,
  theirs: Ref<T> | undefined,
): RefCallback<T> {
  const cleanup = useRef<(() => void) | undefined>(undefined)
  return useCallback(
    (node: T | null) => {
      own.current = node
      if (typeof theirs === 'function') {
        if (node !== null) {
          const returned = theirs(node)
          cleanup.current = typeof returned === 'function' ? returned : undefined
        } else if (cleanup.current) {
          const done = cleanup.current
          cleanup.current = undefined
          done()
        } else {
          theirs(null)
        }
      } else if (theirs) {
        theirs.current = node
      }
    },
    [own, theirs],
  )
}
