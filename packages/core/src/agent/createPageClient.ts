import { randomId } from '../base/ids'
import { DEFAULT_MESSAGE_LIMITS, utf8Length } from '../protocol/bounds'
import { decodeMessage } from '../protocol/decodeMessage'
import { encodeMessage } from '../protocol/encodeMessage'
import { PROTOCOL_VERSION } from '../protocol/messages'
import type { ToAgentMessage, ToPageMessage } from '../protocol/messages'
import { TOOL_NAME_MAX, TOOL_NAME_PATTERN } from '../protocol/validateMessage'
import { deepFreeze } from '../base/results'
import type { Manifest, ManifestEntry, ToolResult } from '../types'
import type {
  PageClientOptions,
  PageCallOptions,
  PageConfirmedEvent,
  PageOutcomeOptions,
  PageProgressEvent,
  PageClient,
} from './pageClientTypes'

interface Pending {
  kind: 'call' | 'describe'
  tool: string
  clientId: string
  resolve: (result: ToolResult) => void
  onProgress?: (event: PageProgressEvent) => void
}

/** Pages remembered at once; more would only let a hostile wire grow this client's memory. */
const MAX_PAGES = 64
/** Confirmations awaited at once (a page keeps at most 100 pending by default). */
const MAX_CONFIRMATIONS = 1024
/** Outcomes remembered for an `outcome()` that comes after them. */
const OUTCOME_MEMORY = 256

const frozen = (result: ToolResult): ToolResult => deepFreeze(result)
const CANCELLED_SIGNAL: ToolResult = deepFreeze({ status: 'cancelled', by: 'signal' })
const CANCELLED_POLICY: ToolResult = deepFreeze({ status: 'cancelled', by: 'policy' })
const DISCONNECTED: ToolResult = deepFreeze({
  status: 'error',
  message: 'The page disconnected before the call finished',
})
const UNKNOWN_CONFIRMATION: ToolResult = deepFreeze({
  status: 'refused',
  code: 'confirmation_expired',
  message: 'This client is not waiting for that confirmation and no longer remembers its outcome',
})

const abortError = (message: string): Error => {
  const error = new Error(message)
  error.name = 'AbortError'
  return error
}

/** An aborted signal's reason, or an `AbortError` when the runtime gives none. */
const reasonOf = (signal: AbortSignal): unknown =>
  signal.reason ?? abortError('The wait for the outcome was aborted')

interface OutcomeWaiter {
  resolve: (result: ToolResult) => void
  reject: (reason: unknown) => void
}

/** A usable timer delay: timers overflow past 2^31 − 1 ms and fire at once. */
const deadline = (ms: number) =>
  Number.isFinite(ms) && ms >= 0 ? Math.min(ms, 2_147_483_647) : 120_000

function emit<T>(listeners: Iterable<(event: T) => void>, event: T): void {
  for (const listener of [...listeners]) {
    try {
      listener(event)
    } catch {
      // A broken listener does not break the client.
    }
  }
}

/**
 * The agent's half of protocol v1, for a server or an in-page assistant. It says `hello`,
 * tracks each page's manifest, binds every call to an unguessable id and to the page it went
 * to, enforces a deadline (then sends `cancel`), and ignores results it did not ask for or
 * already has. Inbound messages are checked like the page checks its own.
 *
 * @example
 * const client = createPageClient({ transport })
 * await client.ready
 * const result = await client.call('tickets.close', { id: 'T-1' })
 */
export function createPageClient(options: PageClientOptions): PageClient {
  const { transport } = options
  const deadlineMs = options.deadlineMs ?? 120_000
  const limits = {
    maxBytes: options.maxMessageBytes ?? DEFAULT_MESSAGE_LIMITS.toAgent.maxBytes,
    maxDepth: options.maxDepth ?? DEFAULT_MESSAGE_LIMITS.toAgent.maxDepth,
  }
  const pageLimits = { ...DEFAULT_MESSAGE_LIMITS.toPage, ...options.pageLimits }
  const only = options.clientId
  const manifests = new Map<string, Manifest>()
  const pending = new Map<string, Pending>()
  const ids = new WeakMap<Promise<ToolResult>, string>()
  const awaitedConfirmations = new Map<string, { clientId: string; tool: string }>()
  const outcomes = new Map<string, ToolResult>()
  const waiters = new Map<string, Set<OutcomeWaiter>>()
  const confirmedListeners = new Set<(event: PageConfirmedEvent) => void>()
  const progressListeners = new Set<(event: PageProgressEvent) => void>()
  const manifestListeners = new Set<(manifest: Manifest, clientId: string) => void>()
  const waitingForPage = new Set<() => void>()
  const cancellers = new Map<string, (result: ToolResult) => void>()
  let defaultClientId = only
  let closed = false
  let resolveReady!: (manifest: Manifest) => void
  const ready = new Promise<Manifest>((resolve) => (resolveReady = resolve))

  const send = (message: ToPageMessage): boolean => {
    const text = encodeMessage(message)
    if (text === undefined) return false
    try {
      transport.send(text)
      return true
    } catch {
      return false
    }
  }

  const onManifest = (message: Extract<ToAgentMessage, { type: 'manifest' }>) => {
    const known = manifests.get(message.clientId)
    if (known && known.rev > message.rev) return
    if (!known && manifests.size >= MAX_PAGES) return
    const manifest = deepFreeze({ rev: message.rev, tools: message.tools })
    manifests.set(message.clientId, manifest)
    if (defaultClientId === undefined) defaultClientId = message.clientId
    if (message.clientId === defaultClientId) resolveReady(manifest)
    for (const wake of [...waitingForPage]) wake()
    for (const listener of [...manifestListeners]) {
      try {
        listener(manifest, message.clientId)
      } catch {
        // Isolated.
      }
    }
  }

  const receive = (raw: unknown) => {
    if (closed) return
    const check = decodeMessage(raw, 'toAgent', limits)
    if (!check.ok) return
    const message = check.message
    if (only !== undefined && message.clientId !== only) return
    switch (message.type) {
      case 'manifest':
        return onManifest(message)
      case 'result': {
        const entry = pending.get(message.id)
        // Unknown ids, answers from another page and second answers are all ignored.
        if (!entry || entry.clientId !== message.clientId) return
        pending.delete(message.id)
        const { result } = message
        if (result.status === 'needs_confirmation' && entry.kind === 'call') {
          awaitedConfirmations.set(result.confirmId, {
            clientId: message.clientId,
            tool: entry.tool,
          })
          if (awaitedConfirmations.size > MAX_CONFIRMATIONS) {
            // Its `confirmed` will be ignored from now on: whoever waits learns it now.
            const evicted = awaitedConfirmations.keys().next().value!
            awaitedConfirmations.delete(evicted)
            settleWaiters(evicted, (waiter) => waiter.resolve(UNKNOWN_CONFIRMATION))
          }
        }
        entry.resolve(frozen(result))
        return
      }
      case 'confirmed': {
        const awaited = awaitedConfirmations.get(message.confirmId)
        if (awaited?.clientId !== message.clientId) return
        awaitedConfirmations.delete(message.confirmId)
        const result = frozen(message.result)
        outcomes.set(message.confirmId, result)
        if (outcomes.size > OUTCOME_MEMORY) outcomes.delete(outcomes.keys().next().value!)
        settleWaiters(message.confirmId, (waiter) => waiter.resolve(result))
        emit(confirmedListeners, {
          clientId: message.clientId,
          confirmId: message.confirmId,
          tool: awaited.tool,
          result,
        })
        return
      }
      case 'progress': {
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
        if (entry.onProgress) emit([entry.onProgress], frozenEvent)
        emit(progressListeners, frozenEvent)
        return
      }
    }
  }

  const settleWaiters = (confirmId: string, settle: (waiter: OutcomeWaiter) => void) => {
    const set = waiters.get(confirmId)
    if (!set) return
    waiters.delete(confirmId)
    for (const waiter of [...set]) settle(waiter)
  }

  const outcome = (confirmId: string, outcomeOptions: PageOutcomeOptions = {}) => {
    const { signal } = outcomeOptions
    if (closed) return Promise.reject(abortError('The page client is closed'))
    if (signal?.aborted) return Promise.reject(reasonOf(signal))
    const known = typeof confirmId === 'string' ? outcomes.get(confirmId) : undefined
    if (known) return Promise.resolve(known)
    if (typeof confirmId !== 'string' || !awaitedConfirmations.has(confirmId)) {
      return Promise.resolve(UNKNOWN_CONFIRMATION)
    }
    return new Promise<ToolResult>((resolve, reject) => {
      let set = waiters.get(confirmId)
      if (!set) waiters.set(confirmId, (set = new Set()))
      const done = () => {
        signal?.removeEventListener('abort', onAbort)
        const current = waiters.get(confirmId)
        current?.delete(waiter)
        if (current?.size === 0) waiters.delete(confirmId)
      }
      const waiter: OutcomeWaiter = {
        resolve: (result) => (done(), resolve(result)),
        reject: (reason) => (done(), reject(reason)),
      }
      const onAbort = () => waiter.reject(reasonOf(signal!))
      set.add(waiter)
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  const stopListening = transport.onMessage((raw) => {
    try {
      receive(raw)
    } catch {
      // Decoding never throws; this guards against a listener's side effects.
    }
  })

  /** Resolves with the page to talk to once one is known, or `undefined` when `until` fires. */
  const pageFor = (requested: string | undefined, until: Promise<void>) => {
    const now = requested ?? defaultClientId
    if (now !== undefined) return Promise.resolve<string | undefined>(now)
    return new Promise<string | undefined>((resolve) => {
      const wake = () => {
        if (defaultClientId === undefined) return
        waitingForPage.delete(wake)
        resolve(defaultClientId)
      }
      waitingForPage.add(wake)
      void until.then(() => {
        waitingForPage.delete(wake)
        resolve(undefined)
      })
    })
  }

  const request = (
    kind: Pending['kind'],
    tool: string,
    input: unknown,
    callOptions: PageCallOptions = {},
  ): Promise<ToolResult> => {
    if (closed) return Promise.resolve(CANCELLED_SIGNAL)
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

    void pageFor(callOptions.clientId ?? only, waitEnded).then((clientId) => {
      if (done || clientId === undefined) return
      const rev = callOptions.rev ?? manifests.get(clientId)?.rev
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

  let stopClose: () => void = () => {}
  /** Ends everything: pending calls get `ended` (`cancelled signal`, or an error on a drop). */
  const close = (ended: ToolResult = CANCELLED_SIGNAL) => {
    if (closed) return
    for (const cancel of [...cancellers.values()]) cancel(ended)
    closed = true
    stopListening()
    stopClose()
    for (const confirmId of [...waiters.keys()]) {
      settleWaiters(confirmId, (waiter) =>
        waiter.reject(abortError('The page client closed before the outcome arrived')),
      )
    }
    outcomes.clear()
    awaitedConfirmations.clear()
    confirmedListeners.clear()
    progressListeners.clear()
    manifestListeners.clear()
  }

  try {
    // The page may have run what was pending, or not: an error says so, not a cancellation.
    stopClose = transport.onClose?.(() => close(DISCONNECTED)) ?? stopClose
  } catch {
    // A transport that cannot report its end is treated like one without `onClose`.
  }

  send({ protocol: PROTOCOL_VERSION, type: 'hello', clientId: only ?? '*' })

  const subscribe =
    <T>(set: Set<T>) =>
    (listener: T) => {
      const entry = listener
      set.add(entry)
      return () => {
        set.delete(entry)
      }
    }

  return {
    ready,
    get manifest() {
      return defaultClientId === undefined ? undefined : manifests.get(defaultClientId)
    },
    get manifests() {
      return new Map(manifests)
    },
    get clientId() {
      return defaultClientId
    },
    call: (tool, input, callOptions) => request('call', tool, input, callOptions),
    describe: (tool, callOptions) =>
      request('describe', tool, undefined, callOptions) as Promise<ToolResult<ManifestEntry>>,
    cancel(target) {
      if (target === undefined) {
        for (const cancel of [...cancellers.values()]) cancel(CANCELLED_SIGNAL)
        return
      }
      const id = ids.get(target)
      if (id !== undefined) cancellers.get(id)?.(CANCELLED_SIGNAL)
    },
    outcome,
    onConfirmed: subscribe(confirmedListeners),
    onProgress: subscribe(progressListeners),
    onManifest: subscribe(manifestListeners),
    close: () => close(),
  }
}
