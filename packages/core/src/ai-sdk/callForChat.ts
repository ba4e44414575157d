import { cancelled, deepFreeze, notSerializable, refuse } from '../base/results'
import type { ConfirmStatus, ToolResult, Toolmark } from '../types'
import { confirmStage } from '../confirmations/confirmStage'
import { unref } from '../base/guards'
import { markUntrusted } from './markUntrusted'

/** What a chat model receives for one tool call: the final `ToolResult`, as JSON data. */
export type ChatToolResult = ToolResult & {
  /** `true` on every result of a tool whose results carry page or user content; the first key. */
  untrustedContent?: true
}

/** Options of `callForChat`. */
export interface CallForChatOptions {
  /**
   * Stops the call: a run ends `cancelled signal`; a confirmation nobody has answered yet is
   * withdrawn (`cancelled signal`); an approved run goes on and its own result is returned.
   */
  signal?: AbortSignal
}

/** How soon a stopped call tries again to withdraw a confirmation whose answer was under way. */
const RETRY_MS = 20

const needsPerson = (hints: { consequential?: boolean; destructive?: boolean } | undefined) =>
  hints?.consequential === true || hints?.destructive === true

/** JSON semantics (`toJSON`, `Date` → ISO string); what JSON cannot carry makes an error. */
function asJson(result: ToolResult): ToolResult {
  try {
    const text = JSON.stringify(result, (_key, value: unknown) => {
      if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError('not JSON')
      return value
    })
    return JSON.parse(text) as ToolResult
  } catch {
    // A cycle, a bigint, a non-finite number, or a toJSON that threw.
    return notSerializable()
  }
}

/**
 * A result as a chat model receives it: with JSON semantics (what JSON cannot carry makes an
 * error), deep-frozen, and marked when the tool's results carry page or user content.
 */
export function chatToolResult(result: ToolResult, untrusted: boolean): ChatToolResult {
  const json = asJson(result)
  return deepFreeze((untrusted ? markUntrusted(json) : json) as ChatToolResult)
}

/**
 * Runs a chat model's tool call through `tm.call` as caller `inapp` and resolves with its final
 * result, so one model step sees the outcome. When the registry defers `inapp` confirmations
 * (its default), the call waits here for the person's answer in `<ConfirmDialog>`: the tool's
 * result once approved, `cancelled operator` once denied, `refused confirmation_expired` when
 * nobody answers before the confirmation expires (`limits.confirmationExpiryMs`). A tool that
 * needs a person is refused `not_allowed` while no presenter (dialog) is mounted. Aborting
 * `signal` withdraws a confirmation nobody has answered yet (the call ends `cancelled signal`);
 * once the person approved, the run goes on and this resolves with its real result, so the model
 * is never told `cancelled` for something that ran. Results of `untrustedContent` tools are marked; every result crosses as JSON. Never
 * rejects.
 */
export async function callForChat(
  tm: Toolmark,
  name: string,
  input: unknown,
  options: CallForChatOptions = {},
): Promise<ChatToolResult> {
  const { signal } = options
  const before = tm.describe(name, { caller: 'inapp' })
  const shape = (result: ToolResult): ChatToolResult => {
    const after = tm.describe(name, { caller: 'inapp' })
    // Untrusted when the page said so before or after the call.
    const mark = before?.hints.untrustedContent === true || after?.hints.untrustedContent === true
    return chatToolResult(result, mark)
  }

  if (before && needsPerson(before.hints) && !tm.confirmations.hasPresenter()) {
    return shape(
      refuse('not_allowed', `"${name}" needs a person's confirmation and no one can see it now`),
    )
  }

  // Listen before calling: a person may answer before the call's first result reaches us.
  const outcomes = new Map<string, ToolResult>()
  let waiting:
    { id: string; resolve: (result: ToolResult, status: ConfirmStatus) => void } | undefined
  let withdrawing = false
  const stopListening = tm.events.on('confirm', (event) => {
    if (event.status === 'pending' || !event.result) return
    if (waiting && waiting.id === event.entry.id) waiting.resolve(event.result, event.status)
    else outcomes.set(event.entry.id, event.result)
  })
  try {
    const first = await tm.call(name, input, { caller: 'inapp', ...(signal ? { signal } : {}) })
    if (first.status !== 'needs_confirmation') return shape(first)
    const { confirmId } = first
    const answered = outcomes.get(confirmId)
    if (answered) return shape(answered)
    const final = await new Promise<ToolResult>((resolve) => {
      let settled = false
      let retry: ReturnType<typeof setTimeout> | undefined
      const settle = (result: ToolResult) => {
        if (settled) return
        settled = true
        signal?.removeEventListener('abort', onAbort)
        clearTimeout(retry)
        resolve(result)
      }
      // Stopping the chat withdraws the question if no one has answered it yet. Once the person
      // approved, the tool runs (as the person) whatever the chat does: the model must hear how
      // that run ended, never `cancelled` for something that went through.
      const withdraw = () => {
        if (settled || tm.confirmations.get(confirmId) === undefined) return
        withdrawing = true
        void tm.confirmations.reject(confirmId, 'cancelled').then((result) => {
          if (result.status === 'cancelled') return settle(cancelled('signal'))
          // An answer is under way. If it fails (an edited input that does not validate), the
          // entry stays pending: withdraw it then; if it runs, its outcome arrives as an event.
          retry = unref(setTimeout(withdraw, RETRY_MS))
        })
      }
      const onAbort = () => withdraw()
      waiting = {
        id: confirmId,
        resolve: (result, status) =>
          settle(withdrawing && confirmStage(status) === 'rejected' ? cancelled('signal') : result),
      }
      if (signal?.aborted) onAbort()
      else signal?.addEventListener('abort', onAbort, { once: true })
    })
    return shape(final)
  } finally {
    stopListening()
  }
}
