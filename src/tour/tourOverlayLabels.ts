/** Every string `<TourOverlay>` shows or announces, for localization. */
export interface TourOverlayLabels {
  /** Where the tour is, e.g. "Step 2 of 5". */
  progress: (step: number, total: number) => string
  /** Goes to the step before (`show` and `guide`). */
  back: string
  /** Goes to the next step (`show`). */
  next: string
  /** The next button on the last step of a `show` tour: it ends the tour. */
  done: string
  /** Moves past a `guide` step the person has not done. */
  skip: string
  /** Ends the tour, in every mode. */
  stop: string
  /** A `do` step while the tour calls its tool. */
  doing: string
  /** A `do` step whose call waits for the person's approval in `<ConfirmDialog>`. */
  confirming: string
  /** The panel's title while the tour's steps are being planned. */
  planningTitle: string
  /** The panel's text while the tour's steps are being planned. */
  planning: string
}

/**
 * The English labels `<TourOverlay>` uses by default.
 *
 * @example
 * ```tsx
 * <TourOverlay labels={{ ...defaultTourLabels, stop: 'End the tour' }} />
 * ```
 */
export const defaultTourLabels: TourOverlayLabels = Object.freeze({
  progress: (step: number, total: number) => `Step ${step} of ${total}`,
  back: 'Back',
  next: 'Next',
  done: 'Done',
  skip: 'Skip',
  stop: 'Stop tour',
  doing: 'Doing it…',
  confirming: 'Waiting for your approval',
  planningTitle: 'Tour',
  planning: 'Planning the tour…',
})

/** Merges a partial override over the defaults. */
export function resolveTourLabels(
  labels: Partial<TourOverlayLabels> | undefined,
): TourOverlayLabels {
  if (!labels) return defaultTourLabels
  const merged: Record<string, unknown> = { ...defaultTourLabels }
  for (const [key, value] of Object.entries(labels)) if (value !== undefined) merged[key] = value
  return merged as unknown as TourOverlayLabels
}
