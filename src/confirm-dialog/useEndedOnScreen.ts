'use client'
import { useEffect, useRef, type Dispatch } from 'react'
import type { ConfirmationEntry, Toolmark } from '@toolmark/core'
import type { ConfirmDialogAction, ConfirmDialogView } from './confirmDialogState'
import { useIsomorphicLayoutEffect } from '../useIsomorphicLayoutEffect'

/**
 * Tells the dialog's reducer when what a person reads ends by itself, as the registry's `confirm`
 * event reports it: the request on screen expiring (`expired`), a review row expiring or being
 * withdrawn (`left`), so the dialog says why instead of letting it vanish under the cursor.
 * Returns `forgetRows`, called once the rows on screen are being answered: how they end then is
 * the answer's to tell.
 *
 * @example
 * const forgetRows = useEndedOnScreen(tm, view, dispatch)
 */
export function useEndedOnScreen(
  tm: Toolmark,
  { asking, current, review }: Pick<ConfirmDialogView, 'asking' | 'current' | 'review'>,
  dispatch: Dispatch<ConfirmDialogAction>,
): () => void {
  const onScreen = useRef<ConfirmationEntry | undefined>(undefined)
  const rowsOnScreen = useRef<ReadonlySet<string>>(new Set())
  useIsomorphicLayoutEffect(() => {
    onScreen.current = asking ? current : undefined
    rowsOnScreen.current = new Set(
      asking && review ? review.filter((row) => !row.ended).map((row) => row.entry.id) : [],
    )
  })

  // Only the registry ends a request: its `confirm` event says how, and this reads it, never the
  // clock. It comes with the store's notification that drops the entry, so the person reads
  // "expired" instead of watching the request vanish under the cursor. A request on screen that
  // was withdrawn or answered elsewhere just goes; a review row that expires or is withdrawn (the
  // agent stopped, access went away) stays in the list, marked.
  useEffect(
    () =>
      tm.events.on('confirm', (event) => {
        const { entry, status } = event
        if (status !== 'withdrawn' && status !== 'expired' && status !== 'evicted') return
        if (onScreen.current?.id === entry.id) {
          onScreen.current = undefined
          if (status !== 'withdrawn') dispatch({ type: 'expired', entry })
          return
        }
        if (!rowsOnScreen.current.has(entry.id)) return
        dispatch({ type: 'left', entry, reason: status === 'withdrawn' ? 'withdrawn' : 'expired' })
      }),
    [tm, dispatch],
  )

  return () => {
    rowsOnScreen.current = new Set()
  }
}
