'use client'
import {
  forwardRef,
  useEffect,
  useId,
  useRef,
  type ComponentPropsWithoutRef,
  type CSSProperties,
} from 'react'
import type { Toolmark } from '@toolmark/core'
import type { TourStatus } from '@toolmark/core/tour'
import { AgentText } from '../confirm-dialog/AgentText'
import { ROOT_ATTRIBUTE as CONFIRM_ROOT_ATTRIBUTE } from '../confirm-dialog/rootAttribute'
import { useComposedRef } from '../confirm-dialog/useComposedRef'
import { useAppColorScheme } from '../theme/useAppColorScheme'
import { useResolvedToolmark } from '../ToolmarkContext'
import { useAnchorLayout, type AnchorLayout } from './useAnchorLayout'
import { resolveTourLabels, type TourOverlayLabels } from './tourOverlayLabels'
import { TOUR_ROOT_ATTRIBUTE, tourOverlayCss } from './tourOverlayStyles'
import { useTour } from './useTour'
import { useTourFocus } from './useTourFocus'

/** Props of {@link TourOverlay}; other props (`className`, `style`, …) go to its root `<div>`. */
export interface TourOverlayProps extends Omit<ComponentPropsWithoutRef<'div'>, 'children'> {
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
  /** Overrides any of the visible strings (localization). Default: {@link defaultTourLabels}. */
  labels?: Partial<TourOverlayLabels>
  /**
   * Leaves out the built-in stylesheet; the markup keeps its `data-part` attributes, and the root
   * its `--toolmark-tour-*` position variables, to style. Default: false.
   */
  unstyled?: boolean
  /**
   * `'system'` (default) follows the app: the `color-scheme` it declares around the overlay (or in
   * `<meta name="color-scheme">`), else `prefers-color-scheme`. `'light'` or `'dark'` force one.
   */
  colorScheme?: 'system' | 'light' | 'dark'
}

const OPEN: readonly TourStatus[] = ['running', 'waiting', 'confirming']

/** Hidden from sight but read out: the announcement of a step that did not take focus. */
const visuallyHidden: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
}

const px = (value: number) => `${Math.round(value * 100) / 100}px`

/** The `--toolmark-tour-*` variables the stylesheet (or an app's own) places things with. */
function layoutVariables(layout: AnchorLayout | undefined): Record<string, string> {
  if (!layout) return {}
  const vars: Record<string, string> = {
    '--toolmark-tour-panel-top': px(layout.panel.top),
    '--toolmark-tour-panel-left': px(layout.panel.left),
  }
  if (layout.anchor) {
    vars['--toolmark-tour-anchor-top'] = px(layout.anchor.top)
    vars['--toolmark-tour-anchor-left'] = px(layout.anchor.left)
    vars['--toolmark-tour-anchor-width'] = px(layout.anchor.width)
    vars['--toolmark-tour-anchor-height'] = px(layout.anchor.height)
  }
  return vars
}

/**
 * Shows the registry's current tour (started with `useTour().start`, `startTour` or the
 * `tour.start` tool): a highlight around the step's element and a panel beside it, below or above
 * it (docked to the bottom on screens up to 480px wide), with the step's place, title and text
 * (agent text, shown as text with its invisible characters as marks) and what is wrong with it.
 * `show` tours have Back and Next (Done on the last step), `guide` tours Back and Skip, `do`
 * tours say what they are doing; every tour has Stop, and Escape stops it too (unless
 * `<ConfirmDialog>` is asking, on top of the tour). Focus moves to each step's text and goes back
 * where it was when the tour ends. Renders nothing while no tour runs.
 *
 * Theme it with the same `--toolmark-dialog-*` CSS variables as `<ConfirmDialog>`, and
 * `--toolmark-tour-z-index`; or pass `unstyled` and style its `data-part` attributes.
 *
 * @example
 * ```tsx
 * <ToolProvider toolmark={tm}>
 *   <App />
 *   <TourOverlay labels={{ stop: 'End tour' }} />
 *   <ConfirmDialog />
 * </ToolProvider>
 * ```
 */
export const TourOverlay = forwardRef<HTMLDivElement, TourOverlayProps>(function TourOverlay(
  { toolmark, labels: labelsInput, unstyled = false, colorScheme = 'system', style, ...rest },
  forwardedRef,
) {
  const tm = useResolvedToolmark(toolmark, '<TourOverlay>')
  const { snapshot, tour, next, back, stop } = useTour({ toolmark: tm })
  const labels = resolveTourLabels(labelsInput)
  const active = snapshot !== undefined && OPEN.includes(snapshot.status)
  const step = active ? snapshot.step : undefined
  const anchor = active ? snapshot.anchor : undefined
  const index = snapshot?.index ?? -1
  const total = snapshot?.steps.length ?? 0
  const progress = step ? labels.progress(index + 1, total) : undefined

  const root = useRef<HTMLDivElement | null>(null)
  const ref = useComposedRef(root, forwardedRef)
  const panel = useRef<HTMLDivElement | null>(null)
  const text = useRef<HTMLParagraphElement | null>(null)
  const titleId = useId()
  const textId = useId()

  // Each tour freezes its own step objects: the step is a name for what is on screen.
  const layout = useAnchorLayout(anchor, panel, active, step)
  const appScheme = useAppColorScheme(root, active && colorScheme === 'system')
  const announcement = useTourFocus({
    active,
    mode: snapshot?.mode,
    // While a planner works there is no step yet: the panel says so, and takes focus for it.
    step: step ?? tour,
    panel,
    text,
    announcement: step ? `${progress}: ${step.title}` : undefined,
  })

  useEffect(() => {
    if (!active || !anchor || typeof anchor.scrollIntoView !== 'function') return
    const view = anchor.ownerDocument.defaultView
    const reduced = view?.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true
    anchor.scrollIntoView({ block: 'center', behavior: reduced ? 'auto' : 'smooth' })
  }, [active, anchor])

  useEffect(() => {
    const doc = root.current?.ownerDocument
    if (!active || !doc || !tour) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return
      // The confirmation dialog answers its own Escape (a denial): the tour goes on under it. An
      // entry its caller shows itself (an AG-UI interrupt) opens no dialog, so it takes none.
      if (tm.confirmations.list().some((entry) => !entry.presentedByCaller)) return
      const target = event.target
      if (target instanceof Element && target.closest(`[${CONFIRM_ROOT_ATTRIBUTE}]`)) return
      tour.stop()
    }
    doc.addEventListener('keydown', onKeyDown)
    return () => doc.removeEventListener('keydown', onKeyDown)
  }, [active, tm, tour])

  if (!active) return null

  const { mode, status, message } = snapshot
  const activity =
    mode !== 'do' ? undefined : status === 'confirming' ? labels.confirming : labels.doing
  const last = index >= total - 1
  const showHighlight = anchor !== undefined && layout?.anchor !== undefined

  return (
    <div
      {...rest}
      {...{ [TOUR_ROOT_ATTRIBUTE]: '' }}
      ref={ref}
      data-mode={mode}
      data-status={status}
      data-placement={layout?.placement}
      data-color-scheme={colorScheme}
      data-app-color-scheme={colorScheme === 'system' ? appScheme : undefined}
      style={{ ...layoutVariables(layout), ...style } as CSSProperties}
    >
      {unstyled ? null : <style>{tourOverlayCss}</style>}
      {showHighlight ? <div data-part="highlight" aria-hidden="true" /> : null}
      <div
        ref={panel}
        data-part="panel"
        role="dialog"
        aria-modal="false"
        aria-labelledby={titleId}
        aria-describedby={textId}
      >
        {progress ? <p data-part="progress">{progress}</p> : null}
        <h2 id={titleId} data-part="title">
          {step ? <AgentText text={step.title} /> : labels.planningTitle}
        </h2>
        <p id={textId} ref={text} data-part="text" tabIndex={-1}>
          {step ? <AgentText text={step.text} /> : labels.planning}
        </p>
        <div role="status" aria-live="polite" data-part="status">
          {activity ? <p data-part="activity">{activity}</p> : null}
          {message ? (
            <p data-part="message">
              <AgentText text={message} />
            </p>
          ) : null}
          {announcement ? <span style={visuallyHidden}>{announcement}</span> : null}
        </div>
        <div data-part="actions">
          <button type="button" data-action="stop" onClick={stop}>
            {labels.stop}
          </button>
          {mode === 'do' ? null : (
            <button type="button" data-action="back" disabled={index <= 0} onClick={back}>
              {labels.back}
            </button>
          )}
          {mode === 'show' ? (
            <button type="button" data-action="next" data-variant="primary" onClick={next}>
              {last ? labels.done : labels.next}
            </button>
          ) : null}
          {mode === 'guide' ? (
            <button type="button" data-action="skip" onClick={next}>
              {labels.skip}
            </button>
          ) : null}
        </div>
      </div>
    </div>
  )
})
