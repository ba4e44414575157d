import { anchorsOf } from '../anchors/anchors'
import { isPlainObject } from '../base/guards'
import { invalid, ok, refuse } from '../base/results'
import { reportError } from '../events/reportError'
import { definitionFacts } from '../registry/definitions'
import type { RegisterOptions, ResultIssue, StandardSchemaV1, ToolHandle, Toolmark } from '../types'
import { startTour } from './startTour'
import {
  isTourMode,
  MAX_STEP_TEXT,
  MAX_STEP_TITLE,
  MAX_TOUR_STEPS,
  tourStepIssues,
} from './tourSteps'
import type { TourMode, TourPlanner, TourStep } from './tourTypes'

/** Options of {@link registerTourTool}. */
export interface TourToolOptions extends RegisterOptions {
  /** Plans steps for a `goal` when the agent gives none. */
  planner?: TourPlanner
}

/**
 * Registers `tour.start`: the in-app agent answers "show me how…" with a tour of the page's own
 * tools instead of doing the work. The agent gives the steps (or a goal, when a planner is
 * given); the result says the tour started, and the person takes it from there. Only the page's
 * own assistant and tests may start one: a browser or desktop agent gets `refused`.
 *
 * @example
 * const handle = registerTourTool(tm)
 */
export function registerTourTool(tm: Toolmark, options: TourToolOptions = {}): ToolHandle {
  const { planner, ...registerOptions } = options
  return tm.register(
    {
      name: 'tour.start',
      title: 'Show me how',
      description:
        `Starts a tour of this page's tools for the person: "show" points at each step, "guide" waits for them to do it, "do" does it while they watch (with their approval). Steps name a tool and optionally one of its fields, with a title (up to ${MAX_STEP_TITLE} characters) and a text (up to ${MAX_STEP_TEXT}); at most ${MAX_TOUR_STEPS} steps.` +
        (planner ? ' Give a goal instead of steps to have them planned.' : ''),
      inputSchema: {
        type: 'object',
        properties: {
          mode: {
            type: 'string',
            enum: ['show', 'guide', 'do'],
            description: 'show: point at each step; guide: wait for the person; do: do it.',
          },
          goal: {
            type: 'string',
            maxLength: MAX_STEP_TEXT,
            description: 'What the person wants to learn, when the steps are to be planned.',
          },
          steps: {
            type: 'array',
            maxItems: MAX_TOUR_STEPS,
            description: 'The steps, in order.',
            items: {
              type: 'object',
              properties: {
                tool: { type: 'string', description: "A tool's full name from the manifest." },
                field: { type: 'string', description: 'One of its input fields (dot path).' },
                title: { type: 'string', maxLength: MAX_STEP_TITLE, description: 'Shown as text.' },
                text: { type: 'string', maxLength: MAX_STEP_TEXT, description: 'Shown as text.' },
                value: { description: 'do: the value the step writes to its field.' },
                input: { description: "do: the tool's input, for a step without a field." },
              },
              required: ['tool', 'title', 'text'],
            },
          },
        },
        required: ['mode'],
      },
      input: tourStartInput(planner !== undefined),
      // Read with each input shown (events, recordings, telemetry): a step's secret is masked as
      // its own tool would mask it.
      sensitive: (input?: unknown) => stepSecrets(tm, input),
      async run(input, ctx) {
        if (ctx.caller !== 'inapp' && ctx.caller !== 'test') {
          return refuse('tour_not_offered', "Only the page's own assistant can start a tour")
        }
        let steps = input.steps
        if (steps === undefined) {
          // Planned first, so the answer says what the tour is (or why there is none).
          const manifest = tm.manifest({ caller: 'inapp', detail: 'full' })
          try {
            steps = [...(await planner!(input.goal!, manifest))]
          } catch (cause) {
            reportError(tm, {
              code: 'tour_planner_failed',
              message: 'The tour planner threw',
              cause,
            })
            return invalid([{ path: 'goal', message: 'The planner could not plan this tour' }])
          }
          const issues = tourStepIssues(steps)
          if (issues.length > 0) return invalid(issues)
        }
        const tour = startTour(tm, { mode: input.mode, steps, startedBy: ctx.caller })
        return ok({ started: true, mode: input.mode, steps: tour.getSnapshot().steps.length })
      },
    },
    registerOptions,
  )
}

interface TourStartInput {
  mode: TourMode
  goal?: string
  steps?: TourStep[]
}

/** `tour.start`'s input: a mode, and steps (or, with a planner, a goal). */
function tourStartInput(planned: boolean): StandardSchemaV1<unknown, TourStartInput> {
  return {
    '~standard': {
      version: 1,
      vendor: 'toolmark',
      validate(value) {
        const given = isPlainObject(value) ? value : {}
        const issues: ResultIssue[] = []
        if (!isTourMode(given.mode)) {
          issues.push({ path: 'mode', message: 'Expected "show", "guide" or "do"' })
        }
        if (given.steps !== undefined) issues.push(...tourStepIssues(given.steps))
        else if (!planned || typeof given.goal !== 'string' || given.goal.trim() === '') {
          issues.push({
            path: 'steps',
            message: planned ? 'Give steps or a goal' : 'Give the steps',
          })
        } else if (given.goal.length > MAX_STEP_TEXT) {
          issues.push({ path: 'goal', message: `At most ${MAX_STEP_TEXT} characters` })
        }
        if (issues.length > 0) {
          return { issues: issues.map((i) => ({ message: i.message, path: i.path.split('.') })) }
        }
        return { value: given as unknown as TourStartInput }
      },
    },
  }
}

/** More masked values than this in one input: every step's value and input is masked instead. */
const MAX_SECRET_PATHS = 64
/** How deep a step's value or input is looked into, as deep as redaction goes. */
const MAX_DEPTH = 64
const EVERY_STEP = ['steps[].value', 'steps[].input']

/**
 * The paths of a `tour.start` input that carry another tool's secret: a step's `value` where it
 * lands on a sensitive path of the step's tool, and the parts of a step's `input` at that tool's
 * sensitive paths. A tour is no way to show what the tool itself would mask. Input it cannot read,
 * or that holds more than it looks into, masks every step's value and input.
 */
function stepSecrets(tm: Toolmark, input: unknown): readonly string[] {
  if (!isPlainObject(input) || !Array.isArray(input.steps)) return []
  const steps: unknown[] = input.steps
  if (steps.length > MAX_TOUR_STEPS) return EVERY_STEP
  const out: string[] = []
  try {
    steps.forEach((step, i) => {
      if (!isPlainObject(step) || typeof step.tool !== 'string') return
      const facts = definitionFacts(tm, step.tool)
      if (!facts) return
      const secret = (path: string) => facts.sensitive(path)
      if ('input' in step) collect(step.input, '', `steps.${i}.input`, secret, out)
      if ('value' in step && typeof step.field === 'string') {
        const at = valuePath(tm, step.tool, step.field)
        collect(step.value, at, `steps.${i}.value`, secret, out)
      }
    })
  } catch {
    return EVERY_STEP
  }
  return out.length > MAX_SECRET_PATHS ? EVERY_STEP : out
}

/**
 * Adds `at` (a path of the tour's input) for `value` when it lands on a secret path of the tool
 * (`path`), else the secret paths within it. Cycles and depth are bounded.
 */
function collect(
  value: unknown,
  path: string,
  at: string,
  secret: (path: string) => boolean,
  out: string[],
  ancestors: object[] = [],
): void {
  if (out.length > MAX_SECRET_PATHS) return
  if (path !== '' && secret(path)) {
    out.push(at)
    return
  }
  if (value === null || typeof value !== 'object' || ancestors.includes(value)) return
  if (ancestors.length >= MAX_DEPTH) return
  ancestors.push(value)
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key]
    collect(item, path === '' ? key : `${path}.${key}`, `${at}.${key}`, secret, out, ancestors)
  }
  ancestors.pop()
}

/**
 * Where a field step's value lands in its tool's input, as the step's call builds it: where the
 * tool's anchor source writes the field (a form's fill: `values.<field>`), else the field itself.
 */
function valuePath(tm: Toolmark, tool: string, field: string): string {
  const write = anchorsOf(tm)?.inputFor(tool)
  if (!write) return field
  const marker = {}
  return pathOf(write(field, marker), marker, '', 0) ?? field
}

/** The dot path of `target` (by identity) in `value`, depth-bounded. */
function pathOf(value: unknown, target: object, path: string, depth: number): string | undefined {
  if (value === target) return path
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return undefined
  for (const key of Object.keys(value)) {
    const next = path === '' ? key : `${path}.${key}`
    const found = pathOf((value as Record<string, unknown>)[key], target, next, depth + 1)
    if (found !== undefined) return found
  }
  return undefined
}
