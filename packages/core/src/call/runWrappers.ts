import type { ToolRecord } from '../tool/toolRecord'
import type { Caller, ToolResult, Toolmark } from '../types'
import type { Call } from './call'

/**
 * The seam through which one of core's own consumers (`otel()`) wraps every tool run, so the run
 * executes inside whatever it sets up (an active trace context). Reached with `callSeamOf(tm)`;
 * no entry exports it, so nothing public changes, and a registry no such consumer uses pays one
 * length test per run.
 */

/** What a run wrapper is told of the run it wraps. */
export interface RunInfo {
  readonly callId: string
  readonly tool: string
  /** Who the run acts as: the caller, or `human` for a deferred call a person approved. */
  readonly caller: Caller
}

/** What a run gives back: its normalized result (a promise of one never rejects). */
export type RunOutcome = ToolResult | Promise<ToolResult>

/**
 * Wraps one run: calls `execute` once, synchronously, and returns what it gave, unchanged. It
 * never throws: the consumer guards what it calls of the app's (`otel()` its context API).
 */
export type RunWrapper = (run: RunInfo, execute: () => RunOutcome) => RunOutcome

/** What a registry lends its own consumers beyond its public shape. */
export interface CallSeam {
  /** What wraps every run, the first outermost: add with `wrapRuns`. */
  readonly runWrappers: RunWrapper[]
  readonly tools: ReadonlyMap<string, ToolRecord>
}

// A registered symbol, so a registry made by one copy of core is still reached from another's.
const SEAM: unique symbol = Symbol.for('toolmark.callSeam') as never

/**
 * Gives a registry its seam, read-only and non-enumerable, over the wrappers its call pipeline
 * runs (`runWrapped`). Called once, by `createToolmark`; what reads it stays with its consumers,
 * so a registry without them carries none of it.
 */
export function attachCallSeam(tm: Toolmark, seam: CallSeam): void {
  Object.defineProperty(tm, SEAM, { value: seam })
}

/** The seam of a registry made by `createToolmark`; `undefined` for any other object. */
export function callSeamOf(tm: Toolmark): CallSeam | undefined {
  const seam = (tm as { readonly [SEAM]?: CallSeam })[SEAM]
  return typeof seam === 'object' && seam !== null ? seam : undefined
}

/** Adds a wrapper around every run from now on; returns its removal. */
export function wrapRuns(seam: CallSeam, wrapper: RunWrapper): () => void {
  const wrappers = seam.runWrappers
  wrappers.push(wrapper)
  return () => {
    const at = wrappers.indexOf(wrapper)
    if (at !== -1) wrappers.splice(at, 1)
  }
}

/** The registered tool's description, whatever a caller may see of it. */
export function toolDescription(seam: CallSeam, tool: string): string | undefined {
  const description: unknown = seam.tools.get(tool)?.def.description
  return typeof description === 'string' ? description : undefined
}

/** Runs `execute` inside every wrapper attached when the run starts, the first outermost. */
export function runWrapped(
  wrappers: readonly RunWrapper[],
  call: Call,
  execute: () => RunOutcome,
): RunOutcome {
  const info: RunInfo = { callId: call.callId, tool: call.record.name, caller: call.runAs }
  let inner = execute
  for (let i = wrappers.length - 1; i >= 0; i--) {
    const wrapper = wrappers[i]
    const next = inner
    inner = () => wrapper(info, next)
  }
  return inner()
}
