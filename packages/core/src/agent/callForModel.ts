import { deepFreeze } from '../base/results'
import type { Manifest, ToolResult } from '../types'
import type { PageClient } from './pageClientTypes'
import type {
  AwaitConfirmationOption,
  NeedsConfirmationResult,
  PageToolExecuteOptions,
  PageToolResult,
} from './pageToolTypes'

/** How long `awaitConfirmation: true` waits: the page's default confirmation expiry. */
export const DEFAULT_CONFIRMATION_WAIT_MS = 600_000

const CLOSED_NOTE =
  'The connection to the page closed before the person decided, so the outcome is unknown. ' +
  'Do not say it happened.'

const defaultNote = (confirmId: string) =>
  'The person has not decided yet, so the outcome is unknown. Do not repeat this call and do ' +
  `not say it happened; the outcome of confirmation ${confirmId} is reported when they decide.`

/** A page call as a model sees it: `(tool, input, options) → PageToolResult`. Never rejects. */
export type ModelCall = (
  tool: string,
  input: unknown,
  options?: PageToolExecuteOptions,
) => Promise<PageToolResult>

/** Options of `createModelCall`. */
export interface ModelCallOptions {
  clientId?: string
  awaitConfirmation?: AwaitConfirmationOption
}

const timerDelay = (ms: unknown) =>
  typeof ms === 'number' && Number.isFinite(ms) && ms >= 0
    ? Math.min(ms, 2_147_483_647)
    : DEFAULT_CONFIRMATION_WAIT_MS

/**
 * Wraps `client.call` for a model: marks every result of an `untrustedContent` tool, and with
 * `awaitConfirmation` waits for the person's decision so the same tool result carries the final
 * outcome. The agent's own wait ending (its signal, the timeout, the client closing) never
 * cancels the page's confirmation: the model then gets the `needs_confirmation` with a `note`.
 */
export function createModelCall(client: PageClient, options: ModelCallOptions): ModelCall {
  const { clientId } = options
  const wait =
    options.awaitConfirmation === undefined || options.awaitConfirmation === false
      ? undefined
      : options.awaitConfirmation === true
        ? { timeoutMs: DEFAULT_CONFIRMATION_WAIT_MS, note: undefined }
        : {
            timeoutMs: timerDelay(options.awaitConfirmation.timeoutMs),
            note:
              typeof options.awaitConfirmation.note === 'string'
                ? options.awaitConfirmation.note
                : undefined,
          }

  const manifest = (): Manifest | undefined =>
    clientId === undefined ? client.manifest : client.manifests.get(clientId)

  /** `true`/`false` from the page's manifest; `undefined` when the tool is not listed. */
  const untrusted = (tool: string): boolean | undefined => {
    const entry = manifest()?.tools.find((candidate) => candidate.name === tool)
    return entry === undefined ? undefined : entry.hints?.untrustedContent === true
  }

  return async (tool, input, callOptions = {}) => {
    const signal = callOptions.signal ?? callOptions.abortSignal
    const before = untrusted(tool)
    const shape = (result: ToolResult, extra: { approvalAsked?: string; note?: string } = {}) => {
      const after = untrusted(tool)
      // Untrusted when the page said so before or after the call; a tool the manifest did
      // not list yet is treated as untrusted when it returned data.
      const mark =
        before === true ||
        after === true ||
        (before === undefined && after === undefined && result.status === 'ok')
      return deepFreeze({
        ...(mark ? { untrustedContent: true as const } : {}),
        ...result,
        ...extra,
      }) as PageToolResult
    }

    const first = await client.call(tool, input, {
      ...(signal ? { signal } : {}),
      ...(clientId === undefined ? {} : { clientId }),
    })
    if (first.status !== 'needs_confirmation' || !wait) return shape(first)

    try {
      callOptions.onNeedsConfirmation?.(first as NeedsConfirmationResult)
    } catch {
      // A broken listener does not change what the model is told.
    }
    const stop = new AbortController()
    const onAbort = () => stop.abort()
    const timer = setTimeout(onAbort, wait.timeoutMs)
    if (signal?.aborted) stop.abort()
    else signal?.addEventListener('abort', onAbort, { once: true })
    try {
      const final = await client.outcome(first.confirmId, { signal: stop.signal })
      return shape(final, { approvalAsked: first.summary })
    } catch {
      // Only the client closing ends the wait without our own signal aborting.
      const note = stop.signal.aborted ? (wait.note ?? defaultNote(first.confirmId)) : CLOSED_NOTE
      return shape(first, { note })
    } finally {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    }
  }
}
