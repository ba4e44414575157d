'use client'
import { useEffect, useRef, type RefObject } from 'react'
import { returnFocus } from './returnFocus'

/** Options of {@link useModalDialog}. */
export interface UseModalDialogOptions {
  /** Whether there is something to show: the dialog opens as a modal, or closes. */
  open: boolean
  /** Names what is on screen; focus moves to `initialFocus()` whenever it changes. */
  view: string | undefined
  /** Where focus goes for a new view: the safe action, or the dialog itself. */
  initialFocus: () => HTMLElement | null
  /** Changes when the dialog must open again although `open` did not change. */
  reopen?: unknown
  /**
   * Where focus goes on close when the element focused before the dialog cannot take it back
   * (gone, hidden, disabled, inert, or there was none).
   */
  fallbackFocus?: () => HTMLElement | null | undefined
}

/** What {@link useModalDialog} returns. */
export interface UseModalDialogResult {
  ref: RefObject<HTMLDialogElement | null>
  /** Keeps focus where it is for the next view (someone paging through a queue). */
  keepFocus(): void
}

/**
 * Drives a native `<dialog>` as a modal: `showModal()` while there is something to show, focus
 * on the safe action for each new view, and focus back where it was when the dialog closes or
 * unmounts — or, when that element cannot take it any more, to `fallbackFocus()`.
 */
export function useModalDialog({
  open,
  view,
  initialFocus,
  reopen,
  fallbackFocus,
}: UseModalDialogOptions): UseModalDialogResult {
  const ref = useRef<HTMLDialogElement | null>(null)
  const returnFocusTo = useRef<Element | null>(null)
  const keepingFocus = useRef(false)
  const fallback = useRef(fallbackFocus)
  useEffect(() => {
    fallback.current = fallbackFocus
  })

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) {
      returnFocusTo.current = dialog.ownerDocument.activeElement
      if (typeof dialog.showModal === 'function') dialog.showModal()
      else dialog.setAttribute('open', '')
    } else if (!open && dialog.open) {
      closeDialog(dialog, returnFocusTo, fallback.current)
    }
  }, [open, reopen])

  useEffect(() => {
    const dialog = ref.current
    return () => {
      if (dialog?.open) closeDialog(dialog, returnFocusTo, fallback.current)
    }
  }, [])

  const focusTarget = useRef(initialFocus)
  useEffect(() => {
    focusTarget.current = initialFocus
  })
  useEffect(() => {
    const dialog = ref.current
    if (!dialog || !view) return
    const active = dialog.ownerDocument.activeElement
    const stay =
      keepingFocus.current && active && dialog.contains(active) && !active.matches(':disabled')
    keepingFocus.current = false
    if (stay) return
    ;(focusTarget.current() ?? dialog).focus()
  }, [view])

  return {
    ref,
    keepFocus: () => {
      keepingFocus.current = true
    },
  }
}

function closeDialog(
  dialog: HTMLDialogElement,
  returnFocusTo: { current: Element | null },
  fallback: (() => HTMLElement | null | undefined) | undefined,
) {
  if (typeof dialog.close === 'function') dialog.close()
  else dialog.removeAttribute('open')
  const previous = returnFocusTo.current
  returnFocusTo.current = null
  returnFocus(dialog, previous, fallback)
}
