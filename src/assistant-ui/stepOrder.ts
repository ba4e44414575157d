/** One tool call of a model step, as the thread holds it. */
export interface StepCall {
  toolCallId: string
  toolName: string
  /** `true` while the call has no result. */
  pending: boolean
}

/** The tool calls of the message holding `toolCallId`, in the model's order; `undefined` if none. */
export type StepOf = (toolCallId: string) => readonly StepCall[] | undefined

/**
 * How long a call waits for an earlier call of its step to start. The runtime starts a step's
 * calls within a few ticks; past this, a call goes ahead rather than wait on one that never starts.
 */
const MAX_WAIT_MS = 1_000

/** How many started calls are remembered: far more than one step makes. */
const LIMIT = 200

/**
 * Starts the page calls of one model step in the order the model made them. The runtime may call
 * `execute` for a step's calls in another order (seen with React 18: a submit before the fill
 * the model sent ahead of it); the registry queues calls per scope in the order they arrive, so a
 * submit would ask the person about a form the fill has not written yet. `ready` answers when
 * every earlier pending call of the step that is one of ours has started.
 */
export function createStepOrder(stepOf: StepOf, isOurs: (toolName: string) => boolean) {
  const started = new Set<string>()
  const waiting = new Set<() => void>()

  const blocked = (toolCallId: string): boolean => {
    const step = stepOf(toolCallId)
    if (!step) return false
    for (const call of step) {
      if (call.toolCallId === toolCallId) return false
      if (call.pending && isOurs(call.toolName) && !started.has(call.toolCallId)) return true
    }
    return false
  }

  return {
    /** `undefined` when the call may start now, else a promise of when it may. */
    ready(toolCallId: string, signal: AbortSignal): Promise<void> | undefined {
      if (signal.aborted || !blocked(toolCallId)) return undefined
      return new Promise<void>((resolve) => {
        const done = () => {
          waiting.delete(check)
          clearTimeout(timer)
          signal.removeEventListener('abort', done)
          resolve()
        }
        const check = () => {
          if (!blocked(toolCallId)) done()
        }
        const timer = setTimeout(done, MAX_WAIT_MS)
        signal.addEventListener('abort', done, { once: true })
        waiting.add(check)
      })
    },
    /** Notes that a call reached the registry, and lets the calls behind it go. */
    start(toolCallId: string): void {
      started.add(toolCallId)
      if (started.size > LIMIT) started.delete(started.values().next().value as string)
      for (const check of [...waiting]) check()
    },
  }
}
