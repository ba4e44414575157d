'use client'
import {
  forwardRef,
  useCallback,
  useEffect,
  useId,
  useRef,
  type ComponentPropsWithoutRef,
  type ReactNode,
  type RefCallback,
  type SyntheticEvent,
} from 'react'
import { reportError, type FieldChange, type Toolmark } from '@toolmark/core'
import { questionFormOf } from '@toolmark/core/observers'
import { useResolvedToolmark } from '../ToolmarkContext'
import { resolveLabels, type ConfirmDialogLabelsInput } from './confirmDialogLabels'
import { ROOT_ATTRIBUTE } from './rootAttribute'
import { ConfirmDialogButtons } from './ConfirmDialogButtons'
import { ConfirmDialogDetails } from './ConfirmDialogDetails'
import { ConfirmDialogOutcome } from './ConfirmDialogOutcome'
import { questionFormParts, type QuestionForm } from './questionFormKey'
import { ConfirmDialogReview, ConfirmDialogReviewButtons } from './ConfirmDialogReview'
import { isExpiredOutcome } from './confirmDialogState'
import { useAppColorScheme } from '../theme/useAppColorScheme'
import { useComposedRef } from './useComposedRef'
import { useConfirmDialog } from './useConfirmDialog'
import { useModalDialog } from './useModalDialog'
import { AgentText } from './AgentText'

/** What `renderActions` receives to draw its own Approve and Deny controls. */
export interface ConfirmDialogActions {
  approve(): void
  /**
   * Present when the dialog offers grants (`offerGrants`) and the request allows one: approves
   * and lets later calls of the same tool by the same caller run without asking until reload.
   */
  allowForSession?: () => void
  deny(): void
  /**
   * Put it on the deny control (`<Button ref={denyRef}>`): focus starts there whenever a request
   * comes on screen, as with the built-in buttons.
   */
  denyRef: RefCallback<HTMLElement>
  /** True while an approved tool runs: disable the buttons and show progress. */
  pending: boolean
  /** True when the request can no longer be approved. */
  expired: boolean
  /** True when the request on screen is destructive: style approve as a danger action. */
  destructive: boolean
}

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

const BAD_QUESTIONS =
  '<ConfirmDialog questions> takes questionForm from @toolmark/react, nothing else; questions are shown with Decline only.'

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
    const { entry, current, outcomes, answering } = dialog
    // The registry's own form unless one is passed; read at render (a registry lent questions
    // after the dialog mounted is read at its next request).
    const form = questions ?? questionFormOf(tm)
    const question = questionFormParts(form)
    const badQuestions = form !== undefined && !question
    if (badQuestions && tm.dev) throw new Error(`[toolmark] ${BAD_QUESTIONS}`)
    // Reported once per dialog and registry (effects run twice under StrictMode).
    const reportedBadQuestions = useRef<Toolmark>(undefined)
    useEffect(() => {
      if (!badQuestions || reportedBadQuestions.current === tm) return
      reportedBadQuestions.current = tm
      reportError(tm, { code: 'invalid_options', message: BAD_QUESTIONS })
    }, [tm, badQuestions])
    const warnedNoForm = useRef(false)
    useEffect(() => {
      if (question || !entry?.question || !tm.dev || warnedNoForm.current) return
      warnedNoForm.current = true
      console.warn(
        '[toolmark] <ConfirmDialog>: a tool asked a question (ctx.ask) and there is no form to answer it with, so the person can only decline. Create the registry with createToolmark({ confirm: { questions: questions({ form: questionForm }) } }), questionForm from @toolmark/react.',
      )
    }, [tm, question, entry])
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
    const openRows = review?.filter((row) => !row.ended) ?? []
    const expiresAt = review
      ? Math.min(...openRows.map((row) => row.entry.expiresAt))
      : current?.expiresAt
    const showTimer = dialog.asking && expiresAt !== undefined && Number.isFinite(expiresAt)
    const allowForSession =
      !review && offerGrants && entry?.grantable === true && !destructive && entry.verify !== true
        ? dialog.allowForSession
        : undefined

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
            {review ? (
              <>
                <h2 id={titleId} data-part="title">
                  {labels.reviewTitle(review.length)}
                </h2>
                <p id={descriptionId} data-part="summary">
                  {labels.reviewHint}
                </p>
                <ConfirmDialogReview
                  rows={review}
                  labels={labels}
                  renderChanges={renderChanges}
                  busy={answering}
                  onToggle={dialog.toggle}
                  onSeen={dialog.seen}
                />
              </>
            ) : (
              <>
                <h2 id={titleId} data-part="title">
                  <AgentText text={entry.title ?? entry.tool} />
                </h2>
                <p id={descriptionId} data-part="summary">
                  <AgentText text={entry.summary} />
                </p>
                {entry.verify ? <p data-part="verify">{labels.verify}</p> : null}
                {entry.question ? (
                  question ? (
                    <question.Form
                      key={entry.id}
                      formId={questionId}
                      question={entry.question}
                      answer={dialog.answer}
                      disabled={answering || outcomes.length > 0}
                      focusRef={denyRef}
                      labels={labels}
                    />
                  ) : (
                    <p data-part="question">{labels.noQuestionForm}</p>
                  )
                ) : (
                  <ConfirmDialogDetails
                    entry={entry}
                    labels={labels}
                    renderChanges={renderChanges}
                  />
                )}
              </>
            )}
            {outcomes.length > 0 ? (
              <div data-part="outcome" role="alert">
                {outcomes.map((outcome) => (
                  <ConfirmDialogOutcome
                    key={outcome.entry.id}
                    outcome={outcome}
                    labels={labels}
                    named={outcomes.length > 1}
                  />
                ))}
              </div>
            ) : showTimer ? (
              <p data-part="timer">
                {labels.timeLeft(Math.max(0, Math.ceil((expiresAt - dialog.now) / 1000)))}
              </p>
            ) : null}
            {outcomes.length > 0 ? (
              <div data-part="actions">
                <button ref={close} type="button" onClick={dialog.dismiss}>
                  {labels.close}
                </button>
              </div>
            ) : review ? (
              <ConfirmDialogReviewButtons
                approveSelected={dialog.approveSelected}
                denyAll={dialog.deny}
                count={dialog.selected.length}
                pending={answering}
                destructive={destructive}
                denyRef={denyRef}
                labels={labels}
              />
            ) : entry.question ? (
              question ? (
                <question.Buttons
                  formId={questionId}
                  decline={dialog.deny}
                  pending={answering}
                  labels={labels}
                />
              ) : (
                <div data-part="actions">
                  <button
                    ref={denyRef}
                    type="button"
                    data-action="deny"
                    disabled={answering}
                    onClick={dialog.deny}
                  >
                    {labels.decline}
                  </button>
                </div>
              )
            ) : renderActions ? (
              renderActions({
                approve: dialog.approve,
                ...(allowForSession ? { allowForSession } : {}),
                deny: dialog.deny,
                denyRef,
                pending: answering,
                expired: outcomes.some(isExpiredOutcome),
                destructive,
              })
            ) : (
              <ConfirmDialogButtons
                approve={dialog.approve}
                allowForSession={allowForSession}
                deny={dialog.deny}
                pending={answering}
                denyRef={denyRef}
                labels={labels}
                destructive={destructive ? entry : undefined}
              />
            )}
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
