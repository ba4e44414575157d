'use client'
import {
  forwardRef,
  useCallback,
  useId,
  useRef,
  type ComponentPropsWithoutRef,
  type ReactNode,
  type SyntheticEvent,
} from 'react'
import type { FieldChange, Toolmark } from '@toolmark/core'
import { useResolvedToolmark } from '../ToolmarkContext'
import { resolveLabels, type ConfirmDialogLabelsInput } from './confirmDialogLabels'
import { ROOT_ATTRIBUTE } from './rootAttribute'
import { ConfirmDialogControls, type ConfirmDialogActions } from './ConfirmDialogControls'
import { ConfirmDialogRequest } from './ConfirmDialogRequest'
import { ConfirmDialogStatus } from './ConfirmDialogStatus'
import type { QuestionForm } from './questionFormKey'
import { useAppColorScheme } from '../theme/useAppColorScheme'
import { useComposedRef } from './useComposedRef'
import { useConfirmDialog } from './useConfirmDialog'
import { useModalDialog } from './useModalDialog'
import { useQuestionForm } from './useQuestionForm'

export type { ConfirmDialogActions } from './ConfirmDialogControls'

/** Props of {@link ConfirmDialog}; other props go to the root `<dialog>`, and so does `ref`. */
export interface ConfirmDialogProps extends Omit<
  ComponentPropsWithoutRef<'dialog'>,
  'children' | 'open'
> {
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
  /** Overrides any of the visible strings (localization). */
  labels?: ConfirmDialogLabelsInput
  /**
   * Leaves out the built-in stylesheet; the markup keeps its `data-part` attributes to style.
   * The stylesheet stays in the bundle: `<UnstyledConfirmDialog>` leaves it out of that too.
   */
  unstyled?: boolean
  /**
   * `'system'` (default) follows the app: the `color-scheme` it declares around the dialog (or in
   * `<meta name="color-scheme">`), else `prefers-color-scheme`. `'light'` or `'dark'` force one.
   */
  colorScheme?: 'system' | 'light' | 'dark'
  /** Draws the changes instead of the built-in table. */
  renderChanges?: (changes: FieldChange[]) => ReactNode
  /**
   * Draws the Approve and Deny controls of a single request instead of the built-in buttons; see
   * `denyRef`. A review list (several requests of one agent) keeps its own Deny all and Approve
   * selected buttons, and a question (`ctx.ask`) its own form and Answer / Decline buttons.
   */
  renderActions?: (actions: ConfirmDialogActions) => ReactNode
  /**
   * The form questions (`ctx.ask`) are answered with. Default: the one the registry was given,
   * `createToolmark({ confirm: { questions: questions({ form: questionForm }) } })`, so the dialog
   * needs nothing of its own; pass `questionForm` here only for a registry made without it.
   * Without a form a question shows its prompt with Decline only, and development warns; an app
   * that never asks does not bundle the form.
   */
  questions?: QuestionForm
  /**
   * Shows a Stop button in the dialog that calls this: pass your chat's `stop` (from
   * `useToolmarkChat`), which ends the agent's turn and withdraws the confirmations it asked
   * for. The dialog is modal, so the page's own Stop button cannot be reached while it is open.
   * Default: no Stop button.
   */
  onStop?: () => void
  /**
   * Whether "Allow for this session" shows beside "Allow once" on requests whose tool a person
   * may grant (`entry.grantable`: never destructive or verified tools, and as the tool's `grant`
   * and `policy[caller].grants` allow). Later calls of that tool by that caller then run without
   * asking until the page reloads or the grant is revoked. Default: what the registry says — it
   * offers grants when it was made with `createToolmark({ confirm: { grants: grants() } })`, and
   * a registry without them has nothing grantable. `false` keeps each call asking here.
   */
  offerGrants?: boolean
  /**
   * Where focus goes when the dialog closes and the element that had focus before it opened
   * cannot take it back: it unmounted (the suggestion that started the request, the form the
   * approval submitted), or it is hidden, disabled or inert now, or nothing had focus. Return
   * your chat's input or the page's main heading. Otherwise focus goes back to that element.
   * Default: none, and focus stays where the browser leaves it.
   */
  returnFocus?: () => HTMLElement | null | undefined
}

/** What {@link ConfirmDialogRoot} takes: the public props, and the stylesheet to inject, if any. */
interface ConfirmDialogRootProps extends Omit<ConfirmDialogProps, 'unstyled'> {
  stylesheet?: string
}

/**
 * The dialog itself, without a stylesheet of its own: `<ConfirmDialog>` passes the built-in one,
 * `<UnstyledConfirmDialog>` none, so a bundle that never injects the stylesheet never holds it.
 */
export const ConfirmDialogRoot = forwardRef<HTMLDialogElement, ConfirmDialogRootProps>(
  function ConfirmDialogRoot(
    {
      toolmark,
      labels: labelsInput,
      stylesheet,
      colorScheme = 'system',
      renderChanges,
      renderActions,
      onStop,
      offerGrants = true,
      questions,
      returnFocus,
      onCancel,
      onClose,
      ...rest
    },
    forwardedRef,
  ) {
    const tm = useResolvedToolmark(toolmark, '<ConfirmDialog>')
    const dialog = useConfirmDialog(tm)
    const { entry, outcomes, answering } = dialog
    const question = useQuestionForm(tm, questions, entry)
    const labels = resolveLabels(labelsInput)
    const titleId = useId()
    const descriptionId = useId()
    const questionId = useId()

    const deny = useRef<HTMLElement | null>(null)
    const denyRef = useCallback((node: HTMLElement | null) => {
      deny.current = node
    }, [])
    const close = useRef<HTMLButtonElement | null>(null)
    const modal = useModalDialog({
      open: entry !== undefined,
      view: dialog.key,
      reopen: dialog.reopened,
      fallbackFocus: returnFocus,
      initialFocus: () =>
        outcomes.length > 0
          ? close.current
          : answering
            ? null
            : (deny.current ??
              modal.ref.current?.querySelector<HTMLElement>('[autofocus]') ??
              null),
    })
    const ref = useComposedRef(modal.ref, forwardedRef)
    const appScheme = useAppColorScheme(modal.ref, colorScheme === 'system' && entry !== undefined)

    const handleCancel = (event: SyntheticEvent<HTMLDialogElement>) => {
      onCancel?.(event)
      // A cancel the browser will not let us stop ends in `close`, which denies there: deny once.
      if (event.defaultPrevented || !event.cancelable) return
      // Escape means "no": deny, and keep the dialog for whatever comes next.
      event.preventDefault()
      dialog.deny()
    }

    const handleClose = (event: SyntheticEvent<HTMLDialogElement>) => {
      onClose?.(event)
      const element = modal.ref.current
      // The browser closed the dialog itself (a close request it would not let us cancel): treat
      // it as a denial and open again for whatever is still pending. Nothing is approved here.
      if (element && !element.open && entry !== undefined) dialog.closedByBrowser()
    }

    const { review } = dialog
    const who = entry ? (labels.callers[entry.caller] ?? entry.caller) : ''
    const destructive = review
      ? dialog.selected.some((item) => item.hints.destructive === true)
      : entry?.hints.destructive === true

    return (
      <dialog
        {...rest}
        {...{ [ROOT_ATTRIBUTE]: '' }}
        data-color-scheme={colorScheme}
        data-app-color-scheme={colorScheme === 'system' ? appScheme : undefined}
        data-tone={destructive ? 'danger' : undefined}
        data-view={review ? 'review' : undefined}
        ref={ref}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        aria-busy={answering || undefined}
        tabIndex={-1}
        onCancel={handleCancel}
        onClose={handleClose}
      >
        {stylesheet === undefined ? null : <style>{stylesheet}</style>}
        {entry ? (
          <>
            <div data-part="meta">
              <p data-part="caller">{labels.requestedBy(who)}</p>
              {dialog.waiting > 0 && dialog.asking ? (
                <p data-part="waiting">{labels.waiting(dialog.waiting)}</p>
              ) : null}
            </div>
            <ConfirmDialogRequest
              dialog={dialog}
              entry={entry}
              titleId={titleId}
              descriptionId={descriptionId}
              questionId={questionId}
              question={question}
              labels={labels}
              renderChanges={renderChanges}
              denyRef={denyRef}
            />
            <ConfirmDialogStatus dialog={dialog} labels={labels} />
            <ConfirmDialogControls
              dialog={dialog}
              entry={entry}
              destructive={destructive}
              offerGrants={offerGrants}
              question={question}
              questionId={questionId}
              labels={labels}
              renderActions={renderActions}
              denyRef={denyRef}
              closeRef={close}
            />
            {onStop ? (
              <div data-part="stop">
                <button type="button" data-action="stop" onClick={onStop}>
                  {labels.stop}
                </button>
              </div>
            ) : null}
          </>
        ) : null}
      </dialog>
    )
  },
)
