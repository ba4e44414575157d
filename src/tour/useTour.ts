'use client'
import { useCallback, useMemo, useSyncExternalStore } from 'react'
import type { Toolmark } from '@toolmark/core'
import { currentTour, startTour, subscribeCurrentTour } from '@toolmark/core/tour'
import type { Tour, TourOptions, TourSnapshot } from '@toolmark/core/tour'
import { useResolvedToolmark } from '../ToolmarkContext'

/** Options of {@link useTour}. */
export interface UseTourOptions {
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
}

/** What {@link useTour} returns: the registry's current tour, and its actions. */
export interface UseTourResult {
  /** The current tour's state; undefined before any tour started on this registry. */
  snapshot: TourSnapshot | undefined
  /** The current tour, running or ended. */
  tour: Tour | undefined
  /** Starts a tour (ending the one running, if any). */
  start(options: TourOptions): Tour
  next(): void
  back(): void
  stop(): void
}

const NONE = () => undefined
const noop = () => () => {}

/**
 * The registry's current tour, started here or anywhere else (`startTour`, the `tour.start` tool
 * the in-app assistant calls), with its actions. Render `<TourOverlay />` once to show it.
 *
 * @example
 * ```tsx
 * function ShowMeHow() {
 *   const { start } = useTour()
 *   return (
 *     <button onClick={() => start({ mode: 'guide', steps })}>Show me how</button>
 *   )
 * }
 * ```
 */
export function useTour(options: UseTourOptions = {}): UseTourResult {
  const tm = useResolvedToolmark(options.toolmark, 'useTour')
  const subscribeCurrent = useCallback(
    (listener: () => void) => subscribeCurrentTour(tm, listener),
    [tm],
  )
  const getCurrent = useCallback(() => currentTour(tm), [tm])
  const tour = useSyncExternalStore(subscribeCurrent, getCurrent, NONE)
  const snapshot = useSyncExternalStore(
    tour ? tour.subscribe : noop,
    tour ? tour.getSnapshot : NONE,
    NONE,
  )
  return useMemo(
    () => ({
      snapshot,
      tour,
      start: (given: TourOptions) => startTour(tm, given),
      next: () => tour?.next(),
      back: () => tour?.back(),
      stop: () => tour?.stop(),
    }),
    [tm, tour, snapshot],
  )
}
