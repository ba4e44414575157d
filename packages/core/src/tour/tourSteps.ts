import { isPlainObject } from '../base/guards'
import { actsForTour } from '../tool/callers'
import type { ResultIssue } from '../types'
import type { TourMode, TourStarter, TourStep } from './tourTypes'

/** The most steps one tour may have. */
export const MAX_TOUR_STEPS = 50
/** The longest step text, in characters. */
export const MAX_STEP_TEXT = 2000
/** The longest step title, in characters. */
export const MAX_STEP_TITLE = 200

const MODES: readonly TourMode[] = ['show', 'guide', 'do']

export const isTourMode = (value: unknown): value is TourMode => MODES.includes(value as TourMode)

/** A caller a tour may act for (see `actsForTour`). */
export const isTourStarter = (value: unknown): value is TourStarter => actsForTour(value)

/**
 * The problems of a step list, as `{ path, message }` issues (`steps.3.text`): too many steps, a
 * step that is not an object, a tool or field that is not a name, a title or text that is not a
 * string or too long. Empty when every step may be shown. Unknown tools and fields are not
 * problems here: they are found when the tour reaches them (`step_invalid`).
 */
export function tourStepIssues(steps: unknown): ResultIssue[] {
  if (!Array.isArray(steps)) return [{ path: 'steps', message: 'Expected a list of steps' }]
  if (steps.length === 0) return [{ path: 'steps', message: 'A tour needs at least one step' }]
  if (steps.length > MAX_TOUR_STEPS) {
    return [{ path: 'steps', message: `At most ${MAX_TOUR_STEPS} steps (got ${steps.length})` }]
  }
  const issues: ResultIssue[] = []
  steps.forEach((step: unknown, i) => {
    const at = `steps.${i}`
    if (!isPlainObject(step)) return void issues.push({ path: at, message: 'Expected a step' })
    if (typeof step.tool !== 'string' || step.tool === '') {
      issues.push({ path: `${at}.tool`, message: 'Expected a tool name' })
    }
    if (step.field !== undefined && (typeof step.field !== 'string' || step.field === '')) {
      issues.push({ path: `${at}.field`, message: 'Expected a field path' })
    }
    text(step.title, `${at}.title`, MAX_STEP_TITLE, issues)
    text(step.text, `${at}.text`, MAX_STEP_TEXT, issues)
  })
  return issues
}

function text(value: unknown, path: string, max: number, issues: ResultIssue[]): void {
  if (typeof value !== 'string') issues.push({ path, message: 'Expected text' })
  else if (value.length > max) {
    issues.push({
      path,
      message: `At most ${max.toLocaleString('en')} characters (got ${value.length.toLocaleString('en')})`,
    })
  }
}

/** A frozen copy of checked steps: later changes to the caller's objects change nothing. */
export const freezeSteps = (steps: readonly TourStep[]): readonly TourStep[] =>
  Object.freeze(
    steps.map((step) => {
      const copy: TourStep = { tool: step.tool, title: step.title, text: step.text }
      if (step.field !== undefined) copy.field = step.field
      if ('input' in step) copy.input = step.input
      if ('value' in step) copy.value = step.value
      return Object.freeze(copy)
    }),
  )
