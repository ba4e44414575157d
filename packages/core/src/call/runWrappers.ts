import {
  bodyOf,
  type RegistryBody,
  type RunInfo,
  type RunOutcome,
  type RunWrapper,
} from '../base/registryBody'
import type { Toolmark } from '../types'
import type { Call } from './call'

/**
 * The seam through which one of core's own consumers (`otel()`) wraps every tool run, so the run
 * executes inside whatever it sets up (an active trace context). Reached with `callSeamOf(tm)`,
 * the registry's body; no entry exports it, so nothing public changes, and a registry no such consumer uses pays one
 * length test per run.
 */

export type { RunInfo, RunOutcome, RunWrapper } from '../base/registryBody'

/** What a registry lends its own consumers beyond its public shape: a part of its body. */
export type CallSeam = Pick<RegistryBody, 'runWrappers' | 'tools'>

/** The seam of a registry made by `createToolmark` (its body); `undefined` for any other object. */
export const callSeamOf = (tm: Toolmark): CallSeam | undefined => bodyOf(tm)

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
