'use client'
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useReducer,
  useRef,
  useState,
  type ComponentPropsWithoutRef,
  type CSSProperties,
  type ReactNode,
  type Ref,
  type SyntheticEvent,
} from 'react'
import { refuse } from '@toolmark/core'
import type { ConfirmationEntry, FieldChange, ToolResult, Toolmark } from '@toolmark/core'
import { useResolvedToolmark } from './ToolmarkContext'
import { useConfirmationsFor } from './useConfirmations'
import {
  resolveLabels,
  type ConfirmDialogLabels,
  type ConfirmDialogLabelsInput,
} from './confirmDialogLabels'
import { ROOT_ATTRIBUTE, confirmDialogCss } from './confirmDialogStyles'

/** What `renderActions` receives to draw its own Approve and Deny buttons. */
export interface ConfirmDialogActions {
  approve(): void
  deny(): void
  /** True while an approved tool runs: disable the buttons and show progress. */
  pending: boolean
  /** True when the request can no longer be approved. */
  expired: boolean
}

/** Props of {@link ConfirmDialog}; other props go to the root `<dialog>`. */
export interface ConfirmDialogProps extends Omit<
  ComponentPropsWithoutRef<'dialog'>,
  'children' | 'open'
> {
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
  /** Overrides any of the visible strings (localization). */
  labels?: ConfirmDialogLabelsInput
  /** Leaves out the built-in stylesheet; the markup keeps its `data-part` attributes to style. */
  unstyled?: boolean
  /** `'system'` follows `prefers-color-scheme` (default); `'light'` or `'dark'` force a theme. */
  colorScheme?: 'system' | 'light' | 'dark'
  /** Draws the changes instead of the built-in table. */
  renderChanges?: (changes: FieldChange[]) => ReactNode
  /**
   * Draws the Approve and Deny controls instead of the built-in buttons. Give the deny control
   * `autoFocus` so focus starts on the safe action.
   */
  renderActions?: (actions: ConfirmDialogActions) => ReactNode
  ref?: Ref<HTMLDialogElement>
}

interface Outcome {
  entry: ConfirmationEntry
  result: ToolResult
}

const EXPIRED_MESSAGE = 'This confirmation is unknown, used or expired'
const NO_IDS: ReadonlySet<string> = new Set()

const isExpired = (result: ToolResult) =>
  result.status === 'refused' && result.code === 'confirmation_expired'

/** Results a person must see: the action did not happen as approved. */
const needsAttention = (result: ToolResult) =>
  result.status === 'error' || result.status === 'invalid' || result.status === 'refused'

const visuallyHidden: CSSProperties = {
  position: 'absolute',
  inlineSize: '1px',
  blockSize: '1px',
  margin: '-1px',
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
}

/**
 * Asks a person to approve or deny what agents want to do. It shows the registry's pending
 * confirmations one at a time in a modal alert dialog: what the tool is, who asks, the summary,
 * the changes (secrets masked), the time left and the position in the queue. Focus starts on
 * Deny, Escape denies and a click outside does nothing; approving waits for the tool and shows a
 * failure instead of closing. While mounted it is the registry's presenter, so browser and
 * desktop agents may use tools that need a confirmation.
 *
 * Theme it with the `--toolmark-dialog-*` CSS variables (`bg`, `fg`, `muted`, `border`,
 * `surface`, `accent`, `accent-fg`, `danger`, `focus`, `radius`, `font`), or pass `unstyled`.
 *
 * @example
 * ```tsx
 * <ToolProvider toolmark={tm}>
 *   <App />
 *   <ConfirmDialog labels={{ approve: 'Allow', deny: 'Block' }} />
 * </ToolProvider>
 * ```
 */
export function ConfirmDialog({
  toolmark,
  labels: labelsInput,
  unstyled = false,
  colorScheme = 'system',
  renderChanges,
  renderActions,
  ref,
  onCancel,
  onClose,
  ...rest
}: ConfirmDialogProps) {
  const tm = useResolvedToolmark(toolmark, '<ConfirmDialog>')
  const { items, approve, reject, approveAll, rejectAll } = useConfirmationsFor(
    { toolmark: tm },
    '<ConfirmDialog>',
  )
  const labels = resolveLabels(labelsInput)
  const titleId = useId()
  const descriptionId = useId()

  const dialogRef = useRef<HTMLDialogElement | null>(null)
  const denyRef = useRef<HTMLButtonElement | null>(null)
  const closeRef = useRef<HTMLButtonElement | null>(null)
  const returnFocusTo = useRef<Element | null>(null)
  const shouldBeOpen = useRef(false)
  const navigating = useRef(false)
  const busy = useRef(false)
  const mounted = useRef(false)

  const [selected, setSelected] = useState({ id: '', index: 0 })
  const [pending, setPending] = useState<ConfirmationEntry | undefined>()
  const [outcomes, setOutcomes] = useState<readonly Outcome[]>([])
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(NO_IDS)
  const [now, setNow] = useState(0)
  const [, rerender] = useReducer((n: number) => n + 1, 0)
  const setRef = useCallback(
    (node: HTMLDialogElement | null) => {
      dialogRef.current = node
      const cleanup = assignRef(ref, node)
      return () => {
        dialogRef.current = null
        if (cleanup) cleanup()
        else assignRef(ref, null)
      }
    },
    [ref],
  )

  const queue = dismissed.size === 0 ? items : items.filter((item) => !dismissed.has(item.id))
  const found = queue.findIndex((item) => item.id === selected.id)
  const index = found >= 0 ? found : Math.min(selected.index, Math.max(0, queue.length - 1))
  const current: ConfirmationEntry | undefined = queue[index]

  // Outcomes and a running approval take over the dialog until they are done.
  const entry = outcomes[0]?.entry ?? pending ?? current
  const expiredNow =
    outcomes.length === 0 && !pending && current !== undefined && now >= current.expiresAt
  const shownOutcomes: readonly Outcome[] =
    outcomes.length > 0
      ? outcomes
      : expiredNow && current
        ? [{ entry: current, result: refuse('confirmation_expired', EXPIRED_MESSAGE) }]
        : []
  const visible = entry !== undefined
  const ticking = visible && shownOutcomes.length === 0 && !pending

  const onScreen = useRef<ConfirmationEntry | undefined>(undefined)
  useLayoutEffect(() => {
    onScreen.current = shownOutcomes.length === 0 && !pending ? current : undefined
    shouldBeOpen.current = visible
  })

  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])

  // The clock runs only while a request is on screen.
  useLayoutEffect(() => {
    if (!ticking) return
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [ticking])

  // The registry's own timer usually expires the entry on screen just before our clock ticks.
  // Seen from the store's notification (before React renders the shorter list), so the person
  // reads "expired" instead of watching the request vanish under the cursor.
  const store = tm.confirmations
  useEffect(
    () =>
      store.subscribe(() => {
        const entry = onScreen.current
        if (!entry || store.get(entry.id) || Date.now() < entry.expiresAt) return
        onScreen.current = undefined
        setOutcomes([{ entry, result: refuse('confirmation_expired', EXPIRED_MESSAGE) }])
      }),
    [store],
  )

  // Opens and closes the native dialog to match what there is to show.
  useEffect(() => {
    const dialog = dialogRef.current
    if (!dialog) return
    if (visible && !dialog.open) {
      returnFocusTo.current = dialog.ownerDocument.activeElement
      if (typeof dialog.showModal === 'function') dialog.showModal()
      else dialog.setAttribute('open', '')
    } else if (!visible && dialog.open) {
      closeDialog(dialog, returnFocusTo)
    }
  })

  useEffect(() => {
    const dialog = dialogRef.current
    return () => {
      if (dialog?.open) closeDialog(dialog, returnFocusTo)
    }
  }, [])

  // Focus goes to the safe action whenever a new request (or an outcome) comes on screen.
  const view = shownOutcomes.length > 0 ? `outcome:${entry?.id}` : pending ? 'pending' : entry?.id
  useEffect(() => {
    const dialog = dialogRef.current
    if (!dialog || !view) return
    const active = dialog.ownerDocument.activeElement
    const stayed =
      navigating.current && active && dialog.contains(active) && !active.matches(':disabled')
    navigating.current = false
    // Someone paging through the queue keeps their place on the navigation buttons.
    if (stayed) return
    const target =
      shownOutcomes.length > 0
        ? closeRef.current
        : pending
          ? dialog
          : (denyRef.current ?? dialog.querySelector<HTMLElement>('[autofocus]'))
    target?.focus()
    // Only a change of view moves focus; re-renders within one view must not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [view])

  async function approveOne() {
    if (busy.current || !current || now >= current.expiresAt) return
    busy.current = true
    const asked = current
    setPending(asked)
    const result = await approve(asked.id)
    busy.current = false
    if (!mounted.current) return
    setPending(undefined)
    if (needsAttention(result)) setOutcomes([{ entry: asked, result }])
  }

  async function approveEvery() {
    if (busy.current || !current) return
    busy.current = true
    const asked = items
    setPending(current)
    const results = await approveAll()
    busy.current = false
    if (!mounted.current) return
    setPending(undefined)
    const failed = results
      .map((result, i) => ({ entry: asked[i], result }))
      .filter((o): o is Outcome => o.entry !== undefined && needsAttention(o.result))
    if (failed.length > 0) setOutcomes(failed)
  }

  function denyOne() {
    if (busy.current) return
    if (shownOutcomes.length > 0) dismissOutcomes()
    else if (current) void reject(current.id)
  }

  function denyEvery() {
    if (busy.current) return
    void rejectAll()
  }

  function dismissOutcomes() {
    const expiredIds = shownOutcomes.filter((o) => isExpired(o.result)).map((o) => o.entry.id)
    if (expiredIds.length > 0) {
      setDismissed((ids) => new Set([...ids, ...expiredIds]))
      // Lets the registry drop an entry its timer has not swept yet; the answer is expected.
      for (const id of expiredIds) if (items.some((item) => item.id === id)) void reject(id)
    }
    setOutcomes([])
  }

  function navigate(to: number) {
    navigating.current = true
    setSelected({ id: queue[to].id, index: to })
  }

  const handleCancel = (event: SyntheticEvent<HTMLDialogElement>) => {
    onCancel?.(event)
    // A cancel the browser will not let us stop ends in `close`, which denies there: deny once.
    if (event.defaultPrevented || !event.cancelable) return
    // Escape means "no": deny, and keep the dialog for whatever comes next.
    event.preventDefault()
    denyOne()
  }

  const handleClose = (event: SyntheticEvent<HTMLDialogElement>) => {
    onClose?.(event)
    const dialog = dialogRef.current
    if (!mounted.current || !shouldBeOpen.current || !dialog || dialog.open) return
    // The browser closed the dialog itself (a close request it would not let us cancel): treat
    // it as a denial and reopen for whatever is still pending. Nothing is ever approved here.
    if (!busy.current) denyOne()
    rerender()
  }

  const total = queue.length
  const position = current ? index + 1 : 0
  const showQueue = total > 1 && shownOutcomes.length === 0 && !pending
  const who = entry ? (labels.callers[entry.caller] ?? entry.caller) : ''
  const expired = shownOutcomes.some((o) => isExpired(o.result))

  return (
    <dialog
      {...rest}
      {...{ [ROOT_ATTRIBUTE]: '' }}
      data-color-scheme={colorScheme}
      ref={setRef}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      aria-busy={pending ? true : undefined}
      tabIndex={-1}
      onCancel={handleCancel}
      onClose={handleClose}
    >
      {unstyled ? null : <style>{confirmDialogCss}</style>}
      {entry ? (
        <>
          <div data-part="meta">
            <p data-part="caller">{labels.requestedBy(who)}</p>
            {showQueue ? (
              <div data-part="nav">
                <button type="button" disabled={index === 0} onClick={() => navigate(index - 1)}>
                  {labels.previous}
                </button>
                <p data-part="position">{labels.position(position, total)}</p>
                <button
                  type="button"
                  disabled={index >= total - 1}
                  onClick={() => navigate(index + 1)}
                >
                  {labels.next}
                </button>
              </div>
            ) : null}
          </div>
          <h2 id={titleId} data-part="title">
            {entry.title ?? entry.tool}
          </h2>
          <p id={descriptionId} data-part="summary">
            {entry.summary}
          </p>
          {entry.changes && entry.changes.length > 0 ? (
            renderChanges ? (
              renderChanges(entry.changes)
            ) : (
              <ChangeTable changes={entry.changes} fieldLabels={entry.labels} labels={labels} />
            )
          ) : null}
          {shownOutcomes.length > 0 ? (
            <div data-part="outcome" role="alert">
              {shownOutcomes.map((o) => (
                <OutcomeMessage
                  key={o.entry.id}
                  outcome={o}
                  labels={labels}
                  named={shownOutcomes.length > 1}
                />
              ))}
            </div>
          ) : !pending && current ? (
            <p data-part="timer">
              {labels.timeLeft(Math.max(0, Math.ceil((current.expiresAt - now) / 1000)))}
            </p>
          ) : null}
          {shownOutcomes.length > 0 ? (
            <div data-part="actions">
              <button ref={closeRef} type="button" onClick={dismissOutcomes}>
                {labels.close}
              </button>
            </div>
          ) : (
            <>
              {showQueue ? (
                <div data-part="bulk">
                  <button type="button" onClick={denyEvery}>
                    {labels.denyAll}
                  </button>
                  <button type="button" onClick={() => void approveEvery()}>
                    {labels.approveAll}
                  </button>
                </div>
              ) : null}
              {renderActions ? (
                renderActions({
                  approve: () => void approveOne(),
                  deny: denyOne,
                  pending: pending !== undefined,
                  expired,
                })
              ) : (
                <div data-part="actions">
                  <button
                    ref={denyRef}
                    type="button"
                    data-action="deny"
                    disabled={pending !== undefined}
                    onClick={denyOne}
                  >
                    {labels.deny}
                  </button>
                  <button
                    type="button"
                    data-action="approve"
                    data-variant="primary"
                    disabled={pending !== undefined}
                    onClick={() => void approveOne()}
                  >
                    {pending ? labels.working : labels.approve}
                  </button>
                </div>
              )}
            </>
          )}
        </>
      ) : null}
    </dialog>
  )
}

function closeDialog(dialog: HTMLDialogElement, returnFocusTo: { current: Element | null }) {
  if (typeof dialog.close === 'function') dialog.close()
  else dialog.removeAttribute('open')
  const target = returnFocusTo.current
  returnFocusTo.current = null
  if (target instanceof HTMLElement && target.isConnected) target.focus()
}

/** Sets a consumer's ref; returns the cleanup a callback ref gave back, if any. */
function assignRef<T>(ref: Ref<T> | undefined, value: T | null): (() => void) | undefined {
  if (typeof ref === 'function') {
    const cleanup = ref(value)
    return typeof cleanup === 'function' ? cleanup : undefined
  }
  if (ref) ref.current = value
  return undefined
}

function ChangeTable({
  changes,
  fieldLabels,
  labels,
}: {
  changes: FieldChange[]
  fieldLabels: Record<string, string> | undefined
  labels: ConfirmDialogLabels
}) {
  return (
    <table data-part="changes" aria-label={labels.changes}>
      <thead>
        <tr>
          <th scope="col">{labels.field}</th>
          <th scope="col">{labels.before}</th>
          <th scope="col">{labels.after}</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => (
          <tr key={change.path}>
            <th scope="row">{fieldLabels?.[change.path] || change.path}</th>
            <td data-part="before">
              <Value present={'before' in change} value={change.before} labels={labels} />
            </td>
            <td data-part="after">
              <Value present={'after' in change} value={change.after} labels={labels} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function Value({
  present,
  value,
  labels,
}: {
  present: boolean
  value: unknown
  labels: ConfirmDialogLabels
}) {
  if (value === '[redacted]') {
    return (
      <span data-part="masked">
        <span aria-hidden="true">••••••</span>
        <span style={visuallyHidden}>{labels.hidden}</span>
      </span>
    )
  }
  if (!present || value === undefined || value === null || value === '') {
    return (
      <span data-part="empty">
        <span aria-hidden="true">—</span>
        <span style={visuallyHidden}>{labels.noValue}</span>
      </span>
    )
  }
  return <>{formatValue(value)}</>
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value)
  }
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = String(value)
  }
  return text.length > 200 ? `${text.slice(0, 199)}…` : text
}

function OutcomeMessage({
  outcome,
  labels,
  named,
}: {
  outcome: Outcome
  labels: ConfirmDialogLabels
  named: boolean
}) {
  const { entry, result } = outcome
  const prefix = named ? `${entry.title ?? entry.tool}: ` : ''
  if (isExpired(result)) {
    return (
      <p data-part="outcome-title">
        {prefix}
        {labels.expired}
      </p>
    )
  }
  if (result.status === 'invalid') {
    return (
      <>
        <p data-part="outcome-title">
          {prefix}
          {labels.invalid}
        </p>
        <ul>
          {result.issues.map((issue, i) => (
            <li key={`${issue.path}:${i}`}>
              {issue.path ? `${issue.path}: ${issue.message}` : issue.message}
            </li>
          ))}
        </ul>
      </>
    )
  }
  const message = result.status === 'error' || result.status === 'refused' ? result.message : ''
  return (
    <>
      <p data-part="outcome-title">
        {prefix}
        {result.status === 'refused' ? labels.refused : labels.failed}
      </p>
      {message ? <p>{message}</p> : null}
    </>
  )
}
