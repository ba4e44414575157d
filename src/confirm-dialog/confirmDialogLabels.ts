import type { Caller } from '@toolmark/core'

/** Every string `<ConfirmDialog>` shows or announces, for localization. */
export interface ConfirmDialogLabels {
  /** Who asks, per caller. */
  callers: Record<Caller, string>
  /** The line above the title, e.g. "Requested by Assistant". */
  requestedBy: (who: string) => string
  approve: string
  /**
   * The approve button of a destructive request, named by what it does: by default the tool's
   * title ("Delete ticket"), else "Delete".
   */
  approveDestructive: (request: { tool: string; title?: string }) => string
  deny: string
  /** Approves the ticked rows of a review list, e.g. "Approve selected (3)". */
  approveSelected: (count: number) => string
  /** Denies every open row of a review list. */
  /** The plain approve button when "Allow for this session" is offered beside it. */
  allowOnce: string
  /**
   * Approves and grants the caller later calls of the same tool until the page reloads, offered
   * on requests the ceilings allow, when the registry makes grants (`entry.grantable`).
   */
  allowSession: string
  denyAll: string
  /** The title of a review list, e.g. "Review 3 requests". */
  reviewTitle: (count: number) => string
  /** Said under a review list's title: what approving does and what happens to the rest. */
  reviewHint: string
  /** Marks a review row whose request the agent withdrew (stopped, or access went away). */
  withdrawn: string
  /** Requests of other agents that wait their turn, e.g. "2 more requests wait after these". */
  waiting: (count: number) => string
  /** Dismisses an outcome. */
  close: string
  /** The approve button while the tool runs. */
  working: string
  /** Time left until the request expires, e.g. "Expires in 9:58". */
  timeLeft: (seconds: number) => string
  /** Shown when the request expired before an answer (or when approving found it expired). */
  expired: string
  /** Accessible name of the changes table. */
  changes: string
  field: string
  before: string
  after: string
  /** Accessible name of the values table (what a request sends, field by field). */
  values: string
  /** Heading of the values column. */
  value: string
  /** Marks a value the request changes, in the values table. */
  changed: string
  /** Marks a value an agent wrote into the form (a form submission's rows). */
  agentFilled: string
  /** The button that shows the rows folded away, e.g. "Show 12 more". */
  moreRows: (count: number) => string
  /** The button that shows the rest of a long text, e.g. "Show 420 more characters". */
  moreText: (count: number) => string
  /** Read out in place of a redacted value, which is shown masked. */
  hidden: string
  /** Read out in place of an absent or empty value, which is shown as a dash. */
  noValue: string
  /** Heading when the approved tool failed (`error`). */
  failed: string
  /** Heading when the approved tool reported issues (`invalid`). */
  invalid: string
  /** Heading when the approved call was refused. */
  refused: string
  /** Shown on a request whose approval asks for the person's passkey, and what a refusal does. */
  verify: string
  /** Heading when the passkey was declined or did not match: nothing ran, the request waits. */
  notVerified: string
  /** The Stop button, shown when the dialog has `onStop`. */
  stop: string
  /** A question's submit button (`ctx.ask`). */
  answer: string
  /** Declines a question: the asking tool hears `declined`. */
  decline: string
  /** The label of a single-value question's field when its schema has no `title`. */
  yourAnswer: string
  /** The empty choice of a question's select. */
  choose: string
  /** Marks a question's field that may be left empty. */
  optional: string
  /** Shown under a question's prompt when the dialog has no `questions` form: only Decline is offered. */
  noQuestionForm: string
}

/** Labels accepted by `<ConfirmDialog labels>`: any subset, callers included. */
export type ConfirmDialogLabelsInput = Partial<Omit<ConfirmDialogLabels, 'callers'>> & {
  callers?: Partial<Record<Caller, string>>
}

const pad = (n: number) => String(n).padStart(2, '0')

/** Formats seconds as `m:ss`, or `h:mm:ss` from one hour up. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`
}

/** The English labels `<ConfirmDialog>` uses by default. */
export const defaultConfirmDialogLabels: ConfirmDialogLabels = Object.freeze({
  callers: Object.freeze({
    inapp: 'Assistant',
    webmcp: 'Browser agent',
    mcp: 'Desktop app',
    test: 'Test',
    human: 'You',
    tour: 'Tour',
  }),
  requestedBy: (who: string) => `Requested by ${who}`,
  approve: 'Approve',
  approveDestructive: (request: { tool: string; title?: string }) => request.title ?? 'Delete',
  deny: 'Deny',
  approveSelected: (count: number) => `Approve selected (${count})`,
  allowOnce: 'Allow once',
  allowSession: 'Allow for this session',
  denyAll: 'Deny all',
  reviewTitle: (count: number) => `Review ${count} requests`,
  reviewHint:
    'Tick what to allow; approved requests run one after another, in order. Unticked requests keep waiting.',
  withdrawn: 'This request was withdrawn',
  waiting: (count: number) =>
    count === 1 ? '1 more request waits after this' : `${count} more requests wait after this`,
  close: 'Close',
  working: 'Working…',
  timeLeft: (seconds: number) => `Expires in ${formatDuration(seconds)}`,
  expired: 'This request expired',
  changes: 'Changes',
  field: 'Field',
  before: 'Before',
  after: 'After',
  values: 'Values',
  value: 'Value',
  changed: 'Changed',
  agentFilled: 'Filled by assistant',
  moreRows: (count: number) => `Show ${count} more`,
  moreText: (count: number) => `Show ${count} more characters`,
  hidden: 'hidden',
  noValue: 'no value',
  failed: 'The action failed',
  invalid: 'The action was not accepted',
  refused: 'The action was refused',
  verify:
    'Approving asks for your passkey (fingerprint, face or PIN). If you cancel it, nothing is done and the request stays here.',
  notVerified: 'Your passkey did not confirm this request. Nothing was done; it is still waiting.',
  stop: 'Stop assistant',
  answer: 'Answer',
  decline: 'Decline',
  yourAnswer: 'Your answer',
  choose: 'Choose…',
  optional: 'optional',
  noQuestionForm: 'This question cannot be answered here, only declined.',
})

/** Merges a partial override over the defaults. */
export function resolveLabels(labels: ConfirmDialogLabelsInput | undefined): ConfirmDialogLabels {
  if (!labels) return defaultConfirmDialogLabels
  const { callers, ...rest } = labels
  const merged: Record<string, unknown> = { ...defaultConfirmDialogLabels }
  for (const [key, value] of Object.entries(rest)) if (value !== undefined) merged[key] = value
  const mergedCallers: Record<string, string> = { ...defaultConfirmDialogLabels.callers }
  for (const [key, value] of Object.entries(callers ?? {})) if (value) mergedCallers[key] = value
  merged.callers = mergedCallers
  return merged as unknown as ConfirmDialogLabels
}
