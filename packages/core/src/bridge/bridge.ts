import { reportError } from '../events/reportError'
import { decodeMessage } from '../protocol/decodeMessage'
import { encodeMessage } from '../protocol/encodeMessage'
import { PROTOCOL_VERSION } from '../protocol/messages'
import type {
  CallMessage,
  DescribeMessage,
  ProgressMessage,
  ToAgentMessage,
  ToPageMessage,
  Transport,
} from '../protocol/messages'
import { ok, refuse } from '../base/results'
import type { Caller, Consumer, ProgressEvent, Toolmark, ToolResult } from '../types'
import { endGrantsOf } from '../confirmations/endGrants'
import { createConfirmRelay } from './createConfirmRelay'

/** Options of `bridge`. */
export interface BridgeOptions {
  /** The wire to the agent. The bridge never closes it: its owner does. */
  transport: Transport
  /** Who the agent is to policy and confirmations. Default `'inapp'`. */
  caller?: Caller
  /** Largest inbound message in UTF-8 bytes. Default `tm.limits.messageBytes` (1 MiB). */
  maxMessageBytes?: number
}

/** Answered ids remembered to refuse a replay; older ones are forgotten first. */
const ANSWERED_MEMORY = 1024

const NOT_SERIALIZABLE: ToolResult = Object.freeze({
  status: 'error',
  message: 'Result not serializable',
})

interface Flight {
  tool: string
  controller: AbortController
  /** The registry's id for this call, learnt from its `call` event. */
  callId?: string
}

/**
 * Sends one message to the agent. A result JSON cannot carry goes as an error instead; a
 * throwing transport is reported, never thrown into the registry.
 */
function sendToAgent(tm: Toolmark, transport: Transport, message: ToAgentMessage): void {
  let text = encodeMessage(message)
  if (text === undefined && (message.type === 'result' || message.type === 'confirmed')) {
    reportError(tm, {
      code: 'result_not_serializable',
      message: 'A result could not cross the bridge with JSON semantics',
    })
    text = encodeMessage({ ...message, result: NOT_SERIALIZABLE })
  }
  if (text === undefined) return
  try {
    transport.send(text)
  } catch (cause) {
    reportError(tm, { code: 'transport_failed', message: 'The bridge transport threw', cause })
  }
}

/** Reports an inbound message dropped unanswered, with where it went wrong. */
function reportDropped(tm: Toolmark, reason: string, path: string): void {
  // The path is built from the sender's keys: keep a hostile one short in the event.
  const at = path.length > 80 ? `${path.slice(0, 80)}…` : path
  reportError(tm, {
    code: 'invalid_message',
    message: `Dropped an inbound bridge message: ${reason}${at ? ` (at "${at}")` : ''}`,
  })
}

/** A call's progress as the wire carries it: counts the schema accepts, text only as text. */
function progressMessage(
  base: Pick<ProgressMessage, 'protocol' | 'type' | 'clientId'>,
  id: string,
  event: ProgressEvent,
): ProgressMessage {
  const message: ProgressMessage = { ...base, id, done: Math.max(0, event.done) }
  if (typeof event.total === 'number' && event.total >= 0) message.total = event.total
  if (typeof event.message === 'string') message.message = event.message
  return message
}

/**
 * Serves a registry to one agent over protocol v1. Attach it with `tm.use`; the returned
 * disposer stops listening and aborts the calls still running.
 *
 * The bridge sends the manifest (as `caller` sees it) on attach, on `hello` and on every
 * revision; answers each `call` and `describe` id exactly once; turns `cancel` into the call's
 * own `cancelled signal` result; forwards `progress` of its calls; and sends `confirmed` for
 * deferred confirmations its calls created, always after the `result` that asked for them.
 * Inbound messages for other `clientId`s are ignored. Anything malformed, oversized, too deep
 * or replaying an id is dropped unanswered with an `invalid_message` error event.
 *
 * A grant lives with the agent it was given to: the grants of `caller` end when the bridge is
 * attached, when an agent says `hello` (a new agent on the wire), and when the bridge is disposed.
 *
 * @example
 * const { page, agent } = createInPageChannel()
 * const stop = tm.use(bridge({ transport: page }))
 * const client = createPageClient({ transport: agent })
 */
export function bridge(options: BridgeOptions): Consumer {
  const { transport } = options
  const caller: Caller = options.caller ?? 'inapp'
  return (tm: Toolmark) => {
    const limits = {
      maxBytes: options.maxMessageBytes ?? tm.limits.messageBytes,
      maxDepth: tm.limits.messageDepth,
    }
    const flights = new Map<string, Flight>()
    const byCallId = new Map<string, string>()
    const answered = new Set<string>()
    let starting: Flight | undefined
    let disposed = false

    const send = (message: ToAgentMessage) => sendToAgent(tm, transport, message)

    const base = <T extends ToAgentMessage['type']>(type: T) => ({
      protocol: PROTOCOL_VERSION as typeof PROTOCOL_VERSION,
      type,
      clientId: tm.clientId,
    })

    const sendManifest = () => {
      const { rev, tools } = tm.manifest({ caller })
      send({ ...base('manifest'), rev, tools })
    }

    const dropped = (reason: string, path = '') => reportDropped(tm, reason, path)

    const remember = (id: string) => {
      answered.add(id)
      if (answered.size > ANSWERED_MEMORY) answered.delete(answered.values().next().value!)
    }

    const confirmations = createConfirmRelay((confirmId, result) =>
      send({ ...base('confirmed'), confirmId, result }),
    )

    const isReplay = (id: string) => flights.has(id) || answered.has(id)

    const settle = (id: string, flight: Flight, result: ToolResult) => {
      if (flights.get(id) !== flight) return
      flights.delete(id)
      if (flight.callId) byCallId.delete(flight.callId)
      remember(id)
      if (disposed) return
      send({ ...base('result'), id, result })
      if (result.status !== 'needs_confirmation') return
      // The result proves the confirmation is ours; an outcome may already be waiting.
      confirmations.resultSent(result.confirmId)
    }

    const call = (message: CallMessage) => {
      if (isReplay(message.id)) return dropped('the id is already in use', 'id')
      const flight: Flight = { tool: message.tool, controller: new AbortController() }
      flights.set(message.id, flight)
      // The registry emits `call` synchronously inside `tm.call`: that event names the callId
      // which progress and confirmation events carry later.
      starting = flight
      let pending: Promise<ToolResult>
      try {
        pending = tm.call(message.tool, message.input, {
          caller,
          signal: flight.controller.signal,
          ...(message.rev === undefined ? {} : { rev: message.rev }),
        })
      } finally {
        starting = undefined
      }
      if (flight.callId) byCallId.set(flight.callId, message.id)
      void pending.then((result) => settle(message.id, flight, result))
    }

    const describe = (message: DescribeMessage) => {
      if (isReplay(message.id)) return dropped('the id is already in use', 'id')
      remember(message.id)
      const entry = tm.describe(message.tool, { caller })
      const result = entry
        ? ok(entry)
        : refuse('unknown_tool', `No tool named ${JSON.stringify(message.tool)}`, { rev: tm.rev })
      send({ ...base('result'), id: message.id, result })
    }

    const receive = (raw: unknown) => {
      if (disposed) return
      const check = decodeMessage(raw, 'toPage', limits)
      if (!check.ok) return dropped(check.reason, check.path)
      const message: ToPageMessage = check.message
      if (message.type === 'hello') {
        if (message.clientId !== '*' && message.clientId !== tm.clientId) return
        // A new agent on the wire: what the person granted the previous one does not carry over.
        endGrantsOf(tm, caller)
        sendManifest()
        return
      }
      // Other pages share some wires (a server fan-out, a window with several frames).
      if (message.clientId !== tm.clientId) return
      if (message.type === 'call') call(message)
      else if (message.type === 'describe') describe(message)
      else flights.get(message.id)?.controller.abort()
    }

    const stops = [
      tm.events.on('call', (event) => {
        if (
          starting &&
          !starting.callId &&
          event.tool === starting.tool &&
          event.caller === caller
        ) {
          starting.callId = event.callId
        }
      }),
      tm.events.on('progress', (event) => {
        const id = byCallId.get(event.callId)
        if (id === undefined || disposed) return
        send(progressMessage(base('progress'), id, event))
      }),
      tm.events.on('confirm', (event) => {
        const { entry } = event
        if (entry.mode !== 'deferred' || disposed) return
        // Before its result is sent, a confirmation is ours when one of our calls asked for it.
        const outcome = event.status === 'pending' ? undefined : event.result
        confirmations.observed(entry.id, byCallId.has(entry.callId), outcome)
      }),
      tm.subscribe(() => {
        if (!disposed) sendManifest()
      }),
      transport.onMessage((raw) => {
        try {
          receive(raw)
        } catch (cause) {
          // Decoding never throws; this guards the registry against a broken transport.
          reportError(tm, { code: 'invalid_message', message: 'A bridge message failed', cause })
        }
      }),
    ]

    // A grant given before this session (over an earlier bridge, or approved after it ended)
    // covers none of this one's calls.
    endGrantsOf(tm, caller)
    sendManifest()

    return () => {
      if (disposed) return
      disposed = true
      for (const stop of stops) stop()
      for (const flight of flights.values()) flight.controller.abort()
      flights.clear()
      byCallId.clear()
      confirmations.clear()
      endGrantsOf(tm, caller)
    }
  }
}
