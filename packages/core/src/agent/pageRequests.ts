import { randomId } from '../base/ids'
import { deepFreeze } from '../base/results'
import { utf8Length } from '../protocol/bounds'
import type { MessageLimits } from '../protocol/bounds'
import { encodeMessage } from '../protocol/encodeMessage'
import { PROTOCOL_VERSION } from '../protocol/messages'
import type { ProgressMessage, ToPageMessage, Transport } from '../protocol/messages'
import { TOOL_NAME_MAX, TOOL_NAME_PATTERN } from '../protocol/validateMessage'
import type { ToolResult } from '../types'
import type { PageCallOptions, PageProgressEvent } from './pageClientTypes'
import type { PageManifests } from './pageManifests'

/** A call or describe sent to a page and not yet answered. */
export interface PendingRequest {
  kind: 'call' | 'describe'
  tool: string
  clientId: string
  resolve: (result: ToolResult) => void
  onProgress?: (event: PageProgressEvent) => void
}

const frozen = (result: ToolResult): ToolResult => deepFreeze(result)
/** How a request the agent gave up on ends (its signal, `cancel()`, or the client closed). */
export const CANCELLED_SIGNAL: ToolResult = deepFreeze({ status: 'cancelled', by: 'signal' })
const CANCELLED_POLICY: ToolResult = deepFreeze({ status: 'cancelled', by: 'policy' })

/** A usable timer delay: timers overflow past 2^31 − 1 ms and fire at once. */
const deadline = (ms: number) =>
  Number.isFinite(ms) && ms >= 0 ? Math.min(ms, 2_147_483_647) : 120_000

/** What a page client's requests need from it. */
export interface PageRequestsOptions {
  transport: Transport
  /** Sends a message that carries no input (`cancel`); false when it could not go. */
  send: (message: ToPageMessage) => boolean
  pages: Pick<PageManifests, 'get' | 'pageFor'>
  isClosed: () => boolean
  /** The one page the client talks to, if it was given one. */
  only: string | undefined
  /** The client's deadline for every request, in ms. */
  deadlineMs: number
  /** What the page accepts. */
  pageLimits: MessageLimits
  /** The client-wide progress listener: hears every call's progress, after the call's own. */
  onProgress: (event: PageProgressEvent) => void
}

/** The calls and describes a page client has in flight. */
export interface PageRequests {
  /** Sends a call or describe; resolves with its frozen result and never rejects. */
  request(
    kind: PendingRequest['kind'],
    tool: string,
    input: unknown,
    callOptions?: PageCallOptions,
  ): Promise<ToolResult>
  /**
   * The request page `clientId` answers with `id`, no longer pending. Unknown ids, answers from
   * another page and second answers are all `undefined`.
   */
  take(id: string, clientId: string): PendingRequest | undefined
  /** Hands a call's progress to the call's own listener, then to the client's. */
  progress(message: ProgressMessage): void
  /** Cancels one pending request (pass its promise) or, with none, every one. */
  cancel(target?: Promise<ToolResult>): void
  /** Ends every pending request with `result`, sending `cancel` for calls a page has. */
  cancelAll(result: ToolResult): void
}

/**
 * Binds every request to an unguessable id and to the page it went to, enforces its deadline
 * (then sends `cancel`), and settles it exactly once.
 */
export function createPageRequests(options: PageRequestsOptions): PageRequests {
  const { transport, send, pages, isClosed, only, deadlineMs, pageLimits } = options
  const pending = new Map<string, PendingRequest>()
  const ids = new WeakMap<Promise<ToolResult>, string>()
  const cancellers = new Map<string, (result: ToolResult) => void>()

  const request: PageRequests['request'] = (kind, tool, input, callOptions = {}) => {
    if (isClosed()) return Promise.resolve(CANCELLED_SIGNAL)
    const { signal } = callOptions
    if (signal?.aborted) return Promise.resolve(CANCELLED_SIGNAL)
    if (typeof tool !== 'string' || tool.length > TOOL_NAME_MAX || !TOOL_NAME_PATTERN.test(tool)) {
      return Promise.resolve(
        frozen({
          status: 'refused',
          code: 'unknown_tool',
          message: `No tool named ${JSON.stringify(String(tool))}`,
        }),
      )
    }
    const id = randomId('call_')
    const limit = deadline(callOptions.deadlineMs ?? deadlineMs)
    let settle!: (result: ToolResult) => void
    const settled = new Promise<ToolResult>((resolve) => (settle = resolve))
    let done = false
    let sent: string | undefined
    let endWait!: () => void
    const waitEnded = new Promise<void>((resolve) => (endWait = resolve))

    const finish = (result: ToolResult, cancel: boolean) => {
      if (done) return
      done = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      endWait()
      if (pending.get(id)?.resolve === finishFromPage) pending.delete(id)
      if (cancel && sent !== undefined && kind === 'call') {
        send({ protocol: PROTOCOL_VERSION, type: 'cancel', clientId: sent, id })
      }
      settle(result)
    }
    const finishFromPage = (result: ToolResult) => finish(result, false)
    const onAbort = () => finish(CANCELLED_SIGNAL, true)
    const timer = setTimeout(() => finish(CANCELLED_POLICY, true), limit)
    signal?.addEventListener('abort', onAbort, { once: true })

    void pages.pageFor(callOptions.clientId ?? only, waitEnded).then((clientId) => {
      if (done || clientId === undefined) return
      const rev = callOptions.rev ?? pages.get(clientId)?.rev
      const message: ToPageMessage =
        kind === 'call'
          ? {
              protocol: PROTOCOL_VERSION,
              type: 'call',
              clientId,
              id,
              tool,
              input: input === undefined ? {} : input,
              ...(rev === undefined ? {} : { rev }),
            }
          : { protocol: PROTOCOL_VERSION, type: 'describe', clientId, id, tool }
      const text = encodeMessage(message, { maxDepth: pageLimits.maxDepth })
      if (text === undefined || utf8Length(text, pageLimits.maxBytes) > pageLimits.maxBytes) {
        const problem =
          text === undefined
            ? 'Input is not JSON data, or is nested too deeply for the page'
            : 'Input is too large for the page'
        return finish(
          frozen({ status: 'invalid', issues: [{ path: '', message: problem }] }),
          false,
        )
      }
      pending.set(id, {
        kind,
        tool,
        clientId,
        resolve: finishFromPage,
        ...(kind === 'call' && callOptions.onProgress
          ? { onProgress: callOptions.onProgress }
          : {}),
      })
      sent = clientId
      try {
        transport.send(text)
      } catch {
        finish(frozen({ status: 'error', message: 'Transport failed' }), false)
      }
    })
    ids.set(settled, id)
    cancellers.set(id, (result) => finish(result, true))
    void settled.then(() => cancellers.delete(id))
    return settled
  }

  const cancelAll = (result: ToolResult) => {
    for (const cancel of [...cancellers.values()]) cancel(result)
  }

  return {
    request,
    take(id, clientId) {
      const entry = pending.get(id)
      if (!entry || entry.clientId !== clientId) return undefined
      pending.delete(id)
      return entry
    },
    progress(message) {
      const entry = pending.get(message.id)
      if (!entry || entry.kind !== 'call' || entry.clientId !== message.clientId) return
      const event: PageProgressEvent = {
        clientId: message.clientId,
        id: message.id,
        tool: entry.tool,
        done: message.done,
      }
      if (message.total !== undefined) event.total = message.total
      if (message.message !== undefined) event.message = message.message
      const frozenEvent = Object.freeze(event)
      const own = entry.onProgress
      try {
        if (own) own(frozenEvent)
      } catch {
        // A broken listener does not break the client.
      }
      options.onProgress(frozenEvent)
    },
    cancel(target) {
      if (target === undefined) return cancelAll(CANCELLED_SIGNAL)
      const id = ids.get(target)
      if (id !== undefined) cancellers.get(id)?.(CANCELLED_SIGNAL)
    },
    cancelAll,
  }
}
