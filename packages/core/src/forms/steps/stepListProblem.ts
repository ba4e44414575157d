import type { Problem } from '../../base/problem'
import { FORBIDDEN_SEGMENTS, isPlainObject } from '../values/paths'

/** A step id or a path segment a step may use. */
export const STEP_ID = /^[A-Za-z0-9_-]+$/

/** Whether a step id is usable: a plain segment, never one that reaches a prototype. */
export const isStepId = (id: unknown): id is string =>
  typeof id === 'string' && STEP_ID.test(id) && !FORBIDDEN_SEGMENTS.has(id)

/** A step of a list whose id was checked: the rest of it is still unknown. */
export type CheckedStep = Record<string, unknown> & { readonly id: string }

/**
 * What is wrong with a list of steps, a one-form wizard's or a wizard of forms: `empty` when it is
 * no list or an empty one, then step by step its id (usable, once) and title, then what
 * `stepProblem` finds in it; `undefined` when nothing.
 */
export function stepListProblem(
  steps: unknown,
  empty: Problem,
  stepProblem: (step: CheckedStep) => Problem | undefined,
): Problem | undefined {
  if (!Array.isArray(steps) || steps.length === 0) return empty
  const ids = new Set<string>()
  for (const step of steps as unknown[]) {
    const s = (isPlainObject(step) ? step : {}) as Record<string, unknown>
    if (!isStepId(s.id)) return ['step id', String(JSON.stringify(s.id))]
    if (ids.has(s.id)) return ['step twice', s.id]
    ids.add(s.id)
    if (s.title !== undefined && typeof s.title !== 'string') return ['step title', s.id]
    const problem = stepProblem(s as CheckedStep)
    if (problem) return problem
  }
  return undefined
}
