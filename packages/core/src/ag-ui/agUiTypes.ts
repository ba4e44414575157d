/**
 * The parts of the AG-UI protocol (`@ag-ui/core` 1.0.0) the adapter reads and writes, mirrored
 * here so `@toolmark/core` keeps zero runtime dependencies. An `HttpAgent` (or any
 * `AbstractAgent`) from `@ag-ui/client` fits {@link AgUiAgent} as it is.
 */

/** A frontend tool as a run input carries it (`RunAgentInput.tools`). */
export interface AgUiTool {
  name: string
  description: string
  /** The arguments' JSON Schema. */
  parameters?: Record<string, unknown>
  /** Extra information for consumers; Toolmark puts the tool's full name and hints here. */
  metadata?: Record<string, unknown>
}

/** A call the model made, inside an assistant message. */
export interface AgUiToolCall {
  id: string
  type: 'function'
  function: { name: string; arguments: string }
}

/** One message of a thread (only the fields the adapter reads or writes are typed). */
export interface AgUiMessage {
  id: string
  role: string
  content?: unknown
  toolCalls?: AgUiToolCall[]
  toolCallId?: string
}

/** Something a run needs from outside before it can go on, such as an approval. */
export interface AgUiInterrupt {
  id: string
  reason: string
  message?: string
  toolCallId?: string
  responseSchema?: Record<string, unknown>
  /** ISO 8601. */
  expiresAt?: string
  metadata?: Record<string, unknown>
}

/** An answer to one interrupt, sent on the run that continues from it. */
export interface AgUiResumeEntry {
  interruptId: string
  status: 'resolved' | 'cancelled'
  payload?: unknown
  metadata?: Record<string, unknown>
}

/** What the adapter hears from a run (a subset of `@ag-ui/client`'s `AgentSubscriber`). */
export interface AgUiSubscriber {
  onRunFinishedEvent?(
    params:
      | { outcome: 'success'; pendingToolCallIds: string[] }
      | { outcome: 'interrupt'; interrupts: AgUiInterrupt[] }
      | { outcome: 'cancelled' },
  ): void
  onRunErrorEvent?(params: { event: { message: string; code?: string } }): void
  onRunFailed?(params: { error: Error }): void
}

/** An AG-UI agent, such as `@ag-ui/client`'s `HttpAgent`. */
export interface AgUiAgent {
  messages: AgUiMessage[]
  addMessage(message: AgUiMessage): void
  runAgent(
    parameters?: { tools?: AgUiTool[]; resume?: AgUiResumeEntry[] },
    subscriber?: AgUiSubscriber,
  ): Promise<unknown>
  abortRun(): void
}
