'use client'
import { useEffect, useRef, type Dispatch } from 'react'
import type { ConfirmationEntry, Toolmark } from '@toolmark/core'
import type { ConfirmDialogAction, ConfirmDialogView } from './confirmDialogState'
import { useIsomorphicLayoutEffect } from '../useIsomorphicLayoutEffect'

/**
 * Tells the dialog's reducer when what a person reads ends by itself: the request on screen
 * expiring (`expired`), a review row expiring or being withdrawn (`left`), so the dialog says why
 * instead of letting it vanish under the cursor. Returns `forgetRows`, called once the rows on
 * screen are being answered: how they end then is the answer's to tell.
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

  // The registry's own timer usually drops the request on screen just before our clock ticks.
  // Seen from the store's notification (before React renders the shorter list), so the person
  // reads "expired" instead of watching the request vanish under the cursor.
  const store = tm.confirmations
  useEffect(
    () =>
      store.subscribe(() => {
        const entry = onScreen.current
        if (!entry || store.get(entry.id) || Date.now() < entry.expiresAt) return
        onScreen.current = undefined
        dispatch({ type: 'expired', entry })
      }),
    [store, dispatch],
  )

  // A review row that expires or is withdrawn (the agent stopped, access went away) stays in the
  // list, marked, instead of vanishing under the person's eyes; one answered elsewhere just goes.
  useEffect(
    () =>
      tm.events.on('confirm', (event) => {
        if (!rowsOnScreen.current.has(event.entry.id)) return
        const { status } = event
        if (status !== 'withdrawn' && status !== 'expired' && status !== 'evicted') return
        dispatch({
          type: 'left',
          entry: event.entry,
          reason: status === 'withdrawn' ? 'withdrawn' : 'expired',
        })
      }),
    [tm, dispatch],
  )

  return () => {
    rowsOnScreen.current = new Set()
  }
}
