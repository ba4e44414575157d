'use client'
import { useEffect, useReducer, useRef } from 'react'
import type { ApproveOptions, ConfirmationEntry, ResultIssue, Toolmark } from '@toolmark/core'
import {
  confirmDialogReducer,
  confirmDialogView,
  initialConfirmDialogState,
  isExpiredOutcome,
  needsAttention,
  type ConfirmDialogView,
  type Outcome,
} from './confirmDialogState'
import { useConfirmationsFor } from '../useConfirmations'
import { useIsomorphicLayoutEffect } from '../useIsomorphicLayoutEffect'

const DIALOG = 'dialog'
/** Approvals from the dialog's own buttons say so (a label for the log, not proof of a person). */
const BY_DIALOG: ApproveOptions = Object.freeze({ by: DIALOG })
const NO_ISSUES: readonly ResultIssue[] = Object.freeze([])

/** What {@link useConfirmDialog} returns: the view and what the person can do. */
export interface UseConfirmDialogResult extends ConfirmDialogView {
  /** The clock (ms) the time left is counted against. */
  now: number
  /** Changes each time the browser closed the dialog on its own, so it opens again. */
  reopened: number
  approve(): void
  /**
   * Answers the question on screen; resolves with the issues of an invalid answer (the question
   * stays), or none once it was taken or ended otherwise (an outcome shows why).
   */
  answer(value: unknown): Promise<readonly ResultIssue[]>
  approveAll(): void
  /** Denies the request on screen, or dismisses the outcomes on screen. */
  deny(): void
  denyAll(): void
  dismiss(): void
  select(index: number): void
  /** The browser closed the dialog without asking: a denial, never an approval. */
  closedByBrowser(): void
}

/**
 * The state of `<ConfirmDialog>`: the registry's pending confirmations (attached as a presenter),
 * the request selected in the queue, the approval that runs, the outcomes to read and the clock.
 */
export function useConfirmDialog(tm: Toolmark): UseConfirmDialogResult {
  const {
    items,
    approve,
    answer: answerQuestion,
    reject,
    approveAll,
    rejectAll,
  } = useConfirmationsFor({ toolmark: tm }, '<ConfirmDialog>')
  const [state, dispatch] = useReducer(confirmDialogReducer, initialConfirmDialogState)
  const view = confirmDialogView(state, items)
  const { asking, current, queue, outcomes } = view

  // One answer at a time, also when two clicks land before the next render.
  const busy = useRef(false)
  const onScreen = useRef<ConfirmationEntry | undefined>(undefined)
  useIsomorphicLayoutEffect(() => {
    onScreen.current = asking ? current : undefined
  })

  // The clock runs only while a request waits on screen; set before paint so the first frame
  // already shows the right time left.
  useIsomorphicLayoutEffect(() => {
    if (!asking) return
    dispatch({ type: 'ticked', now: Date.now() })
    const timer = setInterval(() => dispatch({ type: 'ticked', now: Date.now() }), 1000)
    return () => clearInterval(timer)
  }, [asking])

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
    [store],
  )

  async function answer(asked: readonly ConfirmationEntry[], run: () => Promise<Outcome[]>) {
    if (busy.current || asked.length === 0) return
    busy.current = true
    dispatch({ type: 'answering', entry: asked[0] })
    const failed = await run()
    busy.current = false
    dispatch({ type: 'answered', outcomes: failed })
  }

  const dismiss = () => {
    const expired = outcomes.filter(isExpiredOutcome).map((o) => o.entry.id)
    dispatch({ type: 'dismissed', expired })
    // Lets the registry drop an entry its timer has not swept yet; the answer is expected.
    for (const id of expired) if (items.some((item) => item.id === id)) void reject(id)
  }

  const deny = () => {
    if (busy.current) return
    if (outcomes.length > 0) dismiss()
    else if (current) void reject(current.id)
  }

  return {
    ...view,
    now: state.now,
    reopened: state.reopened,
    approve: () => {
      if (!current || !asking || state.now >= current.expiresAt) return
      const asked = current
      void answer([asked], async () => {
        const result = await approve(asked.id, BY_DIALOG)
        return needsAttention(result) ? [{ kind: 'result', entry: asked, result }] : []
      })
    },
    answer: async (value) => {
      if (!current?.question || !asking || state.now >= current.expiresAt) return NO_ISSUES
      const asked = current
      let issues: readonly ResultIssue[] = NO_ISSUES
      await answer([asked], async () => {
        const result = await answerQuestion(asked.id, value, BY_DIALOG)
        if (result.status === 'invalid') {
          issues = result.issues
          return []
        }
        return needsAttention(result) ? [{ kind: 'result', entry: asked, result }] : []
      })
      return issues
    },
    approveAll: () => {
      if (!current) return
      const asked = items
      void answer(asked, async () => {
        const results = await approveAll(BY_DIALOG)
        return results.flatMap((result, i): Outcome[] =>
          asked[i] && needsAttention(result) ? [{ kind: 'result', entry: asked[i], result }] : [],
        )
      })
    },
    deny,
    denyAll: () => {
      if (!busy.current) void rejectAll()
    },
    dismiss,
    select: (index) => {
      const entry = queue[index]
      if (entry) dispatch({ type: 'selected', id: entry.id, index })
    },
    closedByBrowser: () => {
      if (!busy.current) deny()
      dispatch({ type: 'closedByBrowser' })
    },
  }
}
