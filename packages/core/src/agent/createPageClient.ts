import { DEFAULT_MESSAGE_LIMITS } from '../protocol/bounds'
import { decodeMessage } from '../protocol/decodeMessage'
import { encodeMessage } from '../protocol/encodeMessage'
import { PROTOCOL_VERSION } from '../protocol/messages'
import type { ToPageMessage } from '../protocol/messages'
import { deepFreeze } from '../base/results'
import type { ManifestEntry, ToolResult } from '../types'
import { createConfirmationOutcomes } from './confirmationOutcomes'
import type {
  PageClientOptions,
  PageConfirmedEvent,
  PageProgressEvent,
  PageClient,
} from './pageClientTypes'
import { createPageManifests } from './pageManifests'
import { CANCELLED_SIGNAL, createPageRequests } from './pageRequests'

const frozen = (result: ToolResult): ToolResult => deepFreeze(result)
const DISCONNECTED: ToolResult = deepFreeze({
  status: 'error',
  message: 'The page disconnected before the call finished',
})

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
  const limits = {
    maxBytes: options.maxMessageBytes ?? DEFAULT_MESSAGE_LIMITS.toAgent.maxBytes,
    maxDepth: options.maxDepth ?? DEFAULT_MESSAGE_LIMITS.toAgent.maxDepth,
  }
  const only = options.clientId
  const confirmedListeners = new Set<(event: PageConfirmedEvent) => void>()
  const progressListeners = new Set<(event: PageProgressEvent) => void>()
  let closed = false
  const isClosed = () => closed

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

  const pages = createPageManifests(only)
  const confirmations = createConfirmationOutcomes({
    isClosed,
    onConfirmed: (event) => emit(confirmedListeners, event),
  })
  const requests = createPageRequests({
    transport,
    send,
    pages,
    isClosed,
    only,
    deadlineMs: options.deadlineMs ?? 120_000,
    pageLimits: { ...DEFAULT_MESSAGE_LIMITS.toPage, ...options.pageLimits },
    onProgress: (event) => emit(progressListeners, event),
  })

  const receive = (raw: unknown) => {
    if (closed) return
    const check = decodeMessage(raw, 'toAgent', limits)
    if (!check.ok) return
    const message = check.message
    if (only !== undefined && message.clientId !== only) return
    switch (message.type) {
      case 'manifest':
        return pages.receive(message)
      case 'result': {
        const entry = requests.take(message.id, message.clientId)
        if (!entry) return
        const { result } = message
        if (result.status === 'needs_confirmation' && entry.kind === 'call') {
          confirmations.awaiting(result.confirmId, message.clientId, entry.tool)
        }
        entry.resolve(frozen(result))
        return
      }
      case 'confirmed':
        return confirmations.confirmed(message.clientId, message.confirmId, message.result)
      case 'progress':
        return requests.progress(message)
    }
  }

  const stopListening = transport.onMessage((raw) => {
    try {
      receive(raw)
    } catch {
      // Decoding never throws; this guards against a listener's side effects.
    }
  })

  let stopClose: () => void = () => {}
  /** Ends everything: pending calls get `ended` (`cancelled signal`, or an error on a drop). */
  const close = (ended: ToolResult = CANCELLED_SIGNAL) => {
    if (closed) return
    requests.cancelAll(ended)
    closed = true
    stopListening()
    stopClose()
    confirmations.close()
    confirmedListeners.clear()
    progressListeners.clear()
    pages.clearListeners()
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
    ready: pages.ready,
    get manifest() {
      const clientId = pages.defaultClientId
      return clientId === undefined ? undefined : pages.get(clientId)
    },
    get manifests() {
      return pages.snapshot()
    },
    get clientId() {
      return pages.defaultClientId
    },
    call: (tool, input, callOptions) => requests.request('call', tool, input, callOptions),
    describe: (tool, callOptions) =>
      requests.request('describe', tool, undefined, callOptions) as Promise<
        ToolResult<ManifestEntry>
      >,
    cancel: (target) => requests.cancel(target),
    outcome: (confirmId, outcomeOptions) => confirmations.outcome(confirmId, outcomeOptions),
    onConfirmed: subscribe(confirmedListeners),
    onProgress: subscribe(progressListeners),
    onManifest: (listener) => pages.onManifest(listener),
    close: () => close(),
  }
}
