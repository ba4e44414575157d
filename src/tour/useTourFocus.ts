'use client'
import { useEffect, useRef, useState, type RefObject } from 'react'
import type { TourMode } from '@toolmark/core/tour'
import { canTakeFocus } from '../confirm-dialog/returnFocus'

/** Options of {@link useTourFocus}. */
export interface UseTourFocusOptions {
  /** Whether a tour is on screen. */
  active: boolean
  mode: TourMode | undefined
  /** The step on screen (each tour's own object); focus moves when it changes. */
  step: object | undefined
  /** The tour's panel. */
  panel: RefObject<HTMLElement | null>
  /** The step's text, which takes focus (`tabIndex={-1}`). */
  text: RefObject<HTMLElement | null>
  /** What to announce when focus stays where the person works: the step's place and title. */
  announcement: string | undefined
}

/**
 * The tour's focus: on the step's text as each step is entered, and, when the tour ends, back on
 * the element that had it before the tour started (when it is still in the document and focus
 * went down with the panel). After its first step a `guide` tour moves on as the person works in
 * the page: focus stays where they are (the keys they still type land in their field) and the new
 * step is announced instead. Returns that announcement, for a polite live region.
 */
export function useTourFocus({
  active,
  mode,
  step,
  panel,
  text,
  announcement,
}: UseTourFocusOptions): string | undefined {
  const returnTo = useRef<Element | null>(null)
  const started = useRef(false)
  useEffect(() => {
    const doc = panel.current?.ownerDocument
    if (!active || !doc) return
    const before = doc.activeElement
    // A tour replacing another starts with focus in the panel: keep the first tour's element.
    if (!(before instanceof Node && panel.current?.contains(before))) returnTo.current = before
    return () => {
      const target = returnTo.current
      returnTo.current = null
      started.current = false
      const now = doc.activeElement
      // Only when focus went down with the panel: a person who moved on in the page stays there.
      const lost = !now || now === doc.body || now === doc.documentElement || !now.isConnected
      if (lost && canTakeFocus(target)) target.focus()
    }
  }, [active, panel])

  const [announced, setAnnounced] = useState<string | undefined>(undefined)
  const latest = useRef(announcement)
  useEffect(() => {
    latest.current = announcement
  })
  useEffect(() => {
    const element = text.current
    if (!active || step === undefined || !element) return
    const doc = element.ownerDocument
    const now = doc.activeElement
    const first = !started.current
    started.current = true
    // A guide tour moves on as the person works in the page: focus stays where they work.
    const working =
      mode === 'guide' &&
      !first &&
      now !== null &&
      now !== doc.body &&
      now !== doc.documentElement &&
      !panel.current?.contains(now)
    if (working) return setAnnounced(latest.current)
    setAnnounced(undefined)
    element.focus({ preventScroll: true })
  }, [active, step, mode, panel, text])

  return active ? announced : undefined
}
