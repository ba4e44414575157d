import type { Manifest, ManifestEntry, ToolResult } from '../types'

/** The bridge protocol version every message carries in `protocol`. */
export const PROTOCOL_VERSION = 1

/** Which way a message travels: agent → page (`toPage`) or page → agent (`toAgent`). */
export type MessageDirection = 'toPage' | 'toAgent'

/** Fields every protocol message carries. */
export interface MessageBase {
  protocol: typeof PROTOCOL_VERSION
  /** The page's registry (`tm.clientId`); `hello` may use `'*'` to reach every page. */
  clientId: string
}

// ---------------------------------------------------------------------------------------------
// page → agent
// ---------------------------------------------------------------------------------------------

/** The tools the agent's caller can see, sent on attach, on `hello` and on every revision. */
export interface ManifestMessage extends MessageBase, Manifest {
  type: 'manifest'
}

/**
 * The one answer to a `call` or a `describe` with the same `id`. A `describe` is answered with
 * `ok(entry)` (the full manifest entry, `inputSchema` included) or `refused unknown_tool`.
 */
export interface ResultMessage extends MessageBase {
  type: 'result'
  id: string
  result: ToolResult
}

/** The outcome of a deferred confirmation that a call of this agent created. */
export interface ConfirmedMessage extends MessageBase {
  type: 'confirmed'
  confirmId: string
  result: ToolResult
}

/** Progress a running call reported through `ctx.progress`. */
export interface ProgressMessage extends MessageBase {
  type: 'progress'
  id: string
  done: number
  total?: number
  message?: string
}

/** Every message a page sends. */
export type ToAgentMessage = ManifestMessage | ResultMessage | ConfirmedMessage | ProgressMessage

// ---------------------------------------------------------------------------------------------
// agent → page
// ---------------------------------------------------------------------------------------------

/** Asks the page (or, with `clientId: '*'`, every page) for its manifest. */
export interface HelloMessage extends MessageBase {
  type: 'hello'
}

/** Runs a tool. `rev` is the manifest revision the agent acted on. */
export interface CallMessage extends MessageBase {
  type: 'call'
  id: string
  tool: string
  input: unknown
  rev?: number
}

/** Asks for one tool's full manifest entry (with its input JSON Schema). */
export interface DescribeMessage extends MessageBase {
  type: 'describe'
  id: string
  tool: string
}

/**
 * Aborts the call with this `id`; its result follows: `cancelled signal`, unless the tool had
 * already finished, in which case the agent gets what really happened.
 */
export interface CancelMessage extends MessageBase {
  type: 'cancel'
  id: string
}

/** Every message an agent sends. */
export type ToPageMessage = HelloMessage | CallMessage | DescribeMessage | CancelMessage

/** Any protocol v1 message. */
export type ProtocolMessage = ToAgentMessage | ToPageMessage

/** The message types of each direction, in a stable order. */
export const MESSAGE_TYPES: Readonly<{
  toAgent: readonly ToAgentMessage['type'][]
  toPage: readonly ToPageMessage['type'][]
}> = Object.freeze({
  toAgent: Object.freeze(['manifest', 'result', 'confirmed', 'progress'] as const),
  toPage: Object.freeze(['hello', 'call', 'describe', 'cancel'] as const),
})

/** The data of a `describe` answer. */
export type DescribeResult = ToolResult<ManifestEntry>

/**
 * A wire between a page and an agent. It moves JSON text: `send` takes the text of one message,
 * and listeners receive what arrived (a string from real wires; a custom transport may deliver
 * already-parsed values, which are then checked just as strictly).
 */
export interface Transport {
  /** Sends the JSON text of one message. Never throws for a closed or broken wire. */
  send(text: string): void
  /** Listens to inbound messages; returns an unsubscribe. */
  onMessage(listener: (message: unknown) => void): () => void
  /** Closes the wire for good (optional). */
  close?(): void
  /**
   * Listens for the wire closing for good (optional): `close()` was called, or a connection
   * that is never redialled dropped. A page client ends its waits when it fires. Returns an
   * unsubscribe.
   */
  onClose?(listener: () => void): () => void
}
