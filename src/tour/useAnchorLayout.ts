'use client'
import { useState, type RefObject } from 'react'
import { useIsomorphicLayoutEffect } from '../useIsomorphicLayoutEffect'

/** Where a tour step's element and its panel sit in the window, in CSS pixels. */
export interface AnchorLayout {
  /** The step's element; undefined while there is none (the tour is planning). */
  anchor?: { top: number; left: number; width: number; height: number }
  /** The panel's corner: next to the element, inside the window. */
  panel: { top: number; left: number }
  /** Whether the panel sits below the element or above it. */
  placement: 'below' | 'above'
}

/** The space between the element and the panel, and between the panel and the window's edge. */
const GAP = 12
const MARGIN = 8

const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(value, max))

/** Places the panel below the element when it fits there (or there is more room below), else above. */
export function measureLayout(
  anchor: Element | undefined,
  panel: HTMLElement | null,
  view: Window,
): AnchorLayout {
  const width = view.document.documentElement.clientWidth || view.innerWidth
  const height = view.innerHeight
  const panelWidth = panel?.offsetWidth ?? 0
  const panelHeight = panel?.offsetHeight ?? 0
  const maxTop = Math.max(MARGIN, height - panelHeight - MARGIN)
  const maxLeft = Math.max(MARGIN, width - panelWidth - MARGIN)
  if (!anchor || !anchor.isConnected) {
    return {
      panel: { top: maxTop, left: clamp((width - panelWidth) / 2, MARGIN, maxLeft) },
      placement: 'below',
    }
  }
  const box = anchor.getBoundingClientRect()
  const below = height - box.bottom
  const placement = below >= panelHeight + GAP || below >= box.top ? 'below' : 'above'
  const top = placement === 'below' ? box.bottom + GAP : box.top - GAP - panelHeight
  return {
    anchor: { top: box.top, left: box.left, width: box.width, height: box.height },
    panel: { top: clamp(top, MARGIN, maxTop), left: clamp(box.left, MARGIN, maxLeft) },
    placement,
  }
}

const sameLayout = (a: AnchorLayout | undefined, b: AnchorLayout) =>
  a !== undefined &&
  a.placement === b.placement &&
  a.panel.top === b.panel.top &&
  a.panel.left === b.panel.left &&
  a.anchor?.top === b.anchor?.top &&
  a.anchor?.left === b.anchor?.left &&
  a.anchor?.width === b.anchor?.width &&
  a.anchor?.height === b.anchor?.height

/**
 * Where the step's element and the panel are, kept current while `active`: measured before
 * paint, then again (once a frame at most) as the page scrolls, the window resizes or either
 * element changes size. `step` changes with the step, so a new text is measured at once.
 */
export function useAnchorLayout(
  anchor: Element | undefined,
  panel: RefObject<HTMLElement | null>,
  active: boolean,
  step: unknown,
): AnchorLayout | undefined {
  const [layout, setLayout] = useState<AnchorLayout | undefined>(undefined)
  useIsomorphicLayoutEffect(() => {
    const view = panel.current?.ownerDocument.defaultView
    if (!active || !view) return
    let frame = 0
    const measure = () => {
      frame = 0
      const next = measureLayout(anchor, panel.current, view)
      setLayout((previous) => (sameLayout(previous, next) ? previous : next))
    }
    const schedule = () => {
      if (frame === 0) frame = view.requestAnimationFrame(measure)
    }
    measure()
    // Capture: a scroll of any scrolling box on the page moves the element too.
    view.addEventListener('scroll', schedule, { capture: true, passive: true })
    view.addEventListener('resize', schedule)
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(schedule) : undefined
    if (anchor) observer?.observe(anchor)
    if (panel.current) observer?.observe(panel.current)
    return () => {
      if (frame !== 0) view.cancelAnimationFrame(frame)
      view.removeEventListener('scroll', schedule, { capture: true })
      view.removeEventListener('resize', schedule)
      observer?.disconnect()
    }
  }, [anchor, panel, active, step])
  return active ? layout : undefined
}
