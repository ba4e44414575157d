import { StatusTable } from '../base/statusTable'
import { isPlainObject } from '../base/guards'
import { cancelled, invalid, ok } from '../base/results'
import { anchorsOf } from '../anchors/anchors'
import { reportError } from '../events/reportError'
import { Subscribable } from '../events/subscribable'
import type { CallOptions, ErrorEvent, JsonSchema, ToolResult, Toolmark } from '../types'
import { setCurrentTour } from './currentTour'
import { freezeSteps, isTourMode, isTourStarter, tourStepIssues } from './tourSteps'
import type {
  Tour,
  TourEvent,
  TourMode,
  TourOptions,
  TourSnapshot,
  TourStatus,
  TourStarter,
  TourStep,
} from './tourTypes'

/**
 * Every move of a tour's status, from → to. A move that is not here is a bug in the tour: it
 * throws, naming the move. Staying put is no move (the step or its message may still change).
 */
export const TOUR_MOVES = /* @__PURE__ */ new StatusTable<TourStatus>(
  'A tour',
  {
    // waiting: a guide step waits for the person; confirming: a `do` call waits for approval.
    running: ['waiting', 'confirming', 'done', 'stopped'],
    // running: the person did the step (or moved on).
    waiting: ['running', 'done', 'stopped'],
    // running: the approval came, or the call ended without one.
    confirming: ['running', 'done', 'stopped'],
    done: [],
    stopped: [],
  },
  true,
)

const DEFAULT_PAUSE_MS = 600

/**
 * Starts a tour of the page's own tools: `show` points at each step's element, `guide` waits
 * for the person to do each step, `do` calls each step's tool as caller `tour` on behalf of
 * `startedBy` (default `inapp`): each step must pass that caller's policy and `policy.tour`, and
 * its consequential calls wait for the person in `<ConfirmDialog>`, on top of the tour. Listeners
 * attached in the same turn as `startTour` hear every event from the first. A tour started while
 * another runs on the same registry ends that one (`stopped`). Never throws for what the steps
 * say: bad steps end the tour at once with `finished` answering `invalid`.
 *
 * @example
 * const tour = startTour(tm, {
 *   mode: 'guide',
 *   steps: [{ tool: 'tickets.new.fill', field: 'title', title: 'Title', text: 'Say what broke.' }],
 * })
 * tour.on((event) => console.log(event.type))
 */
export function startTour(tm: Toolmark, options: TourOptions): Tour {
  const tour = new RunningTour(tm, options)
  setCurrentTour(tm, tour)
  tour.begin()
  return tour
}

class RunningTour extends Subscribable implements Tour {
  protected readonly label = 'tour'
  readonly #tm: Toolmark
  readonly #options: TourOptions
  readonly #mode: TourMode
  readonly #startedBy: TourStarter
  #snapshot: TourSnapshot
  /**
   * What the tour told while it began, in the same turn as `startTour`: replayed to a listener
   * attached in that turn, so it hears the first step too. Dropped after one microtask.
   */
  #early: TourEvent[] | undefined = []
  readonly #listeners = new Set<(event: TourEvent) => void>()
  /** Undoes what the current step set up (its listeners, its timer, its call). */
  #leaveStep: (() => void) | undefined
  readonly #controller = new AbortController()
  // By step: Back then Next over a step counts it once.
  readonly #completed = new Set<number>()
  readonly #skipped = new Set<number>()
  #finish!: (result: ToolResult) => void
  readonly finished: Promise<ToolResult>

  constructor(tm: Toolmark, options: TourOptions) {
    super()
    this.#tm = tm
    this.#options = options
    this.#mode = isPlainObject(options) && isTourMode(options.mode) ? options.mode : 'show'
    this.#startedBy =
      isPlainObject(options) && isTourStarter(options.startedBy) ? options.startedBy : 'inapp'
    queueMicrotask(() => (this.#early = undefined))
    this.#snapshot = Object.freeze({ status: 'running', mode: this.#mode, steps: [], index: -1 })
    this.finished = new Promise((resolve) => (this.#finish = resolve))
  }

  protected report(event: ErrorEvent): void {
    reportError(this.#tm, event)
  }

  readonly getSnapshot = (): TourSnapshot => this.#snapshot

  on(listener: (event: TourEvent) => void): () => void {
    const own = (event: TourEvent) => listener(event)
    this.#listeners.add(own)
    for (const event of this.#early ?? []) {
      if (!this.#listeners.has(own)) break
      this.#tell(own, event)
    }
    return () => void this.#listeners.delete(own)
  }

  /** Checks the steps (or plans them), then enters the first. */
  begin(): void {
    const options = this.#options
    if (!isPlainObject(options) || !isTourMode(options.mode)) {
      return this.#refuse([{ path: 'mode', message: 'Expected "show", "guide" or "do"' }])
    }
    if (options.startedBy !== undefined && !isTourStarter(options.startedBy)) {
      return this.#refuse([
        { path: 'startedBy', message: 'Expected "inapp", "webmcp", "mcp" or "test"' },
      ])
    }
    if ('steps' in options) return this.#accept(options.steps)
    if (typeof options.goal !== 'string' || typeof options.planner !== 'function') {
      return this.#refuse([{ path: 'steps', message: 'Give steps, or a goal and a planner' }])
    }
    const manifest = this.#tm.manifest({ caller: 'inapp', detail: 'full' })
    Promise.resolve()
      .then(() => options.planner(options.goal, manifest))
      .then(
        (steps) => this.#accept(steps),
        (cause: unknown) => {
          this.report({ code: 'tour_planner_failed', message: 'The tour planner threw', cause })
          this.#refuse([{ path: 'goal', message: 'The planner could not plan this tour' }])
        },
      )
  }

  next(): void {
    if (this.#mode === 'do' || !this.#open()) return
    const { index, step } = this.#snapshot
    if (this.#snapshot.status === 'waiting' && step) {
      this.#skip(index)
      this.#emit({ type: 'step_skipped', index, step, reason: 'skipped' })
    } else this.#complete(index)
    this.#enter(index + 1)
  }

  back(): void {
    if (this.#mode === 'do' || !this.#open() || this.#snapshot.index <= 0) return
    this.#enter(this.#snapshot.index - 1, -1)
  }

  stop(): void {
    if (!this.#open()) return
    this.#leave()
    this.#controller.abort()
    this.#move('stopped', { message: undefined })
    this.#emit({ type: 'stopped', index: this.#snapshot.index })
    this.#finish(cancelled('operator'))
  }

  #open(): boolean {
    const { status } = this.#snapshot
    return status !== 'done' && status !== 'stopped'
  }

  #accept(steps: unknown): void {
    if (!this.#open()) return
    const issues = tourStepIssues(steps)
    if (issues.length > 0) return this.#refuse(issues)
    this.#move('running', { steps: freezeSteps(steps as TourStep[]) })
    this.#enter(0)
  }

  #refuse(issues: Parameters<typeof invalid>[0]): void {
    if (!this.#open()) return
    this.#move('stopped', {})
    this.#emit({ type: 'stopped', index: -1 })
    this.#finish(invalid(issues))
  }

  /**
   * Enters step `index` (walking `direction` past steps that cannot be shown), or ends the tour
   * after the last.
   */
  #enter(index: number, direction: 1 | -1 = 1): void {
    this.#leave()
    const { steps } = this.#snapshot
    for (let i = index; i >= 0 && i < steps.length; i += direction) {
      if (!this.#open()) return
      const step = steps[i]
      const problem = this.#problem(step)
      if (problem) {
        this.#skip(i)
        this.#emit({ type: 'step_invalid', index: i, step, ...problem })
        continue
      }
      const anchor = this.#tm.anchor(step.tool, step.field)
      if (!anchor) {
        this.#skip(i)
        this.#emit({ type: 'anchor_missing', index: i, step })
        this.#emit({ type: 'step_skipped', index: i, step, reason: 'anchor_missing' })
        continue
      }
      this.#move('running', { index: i, step, anchor, message: undefined })
      this.#emit({ type: 'step_entered', index: i, step })
      if (this.#mode === 'guide') this.#guide(i, step)
      else if (this.#mode === 'do') this.#do(i, step)
      return
    }
    if (direction === -1) return this.#enter(0)
    this.#done()
  }

  #done(): void {
    if (!this.#open()) return
    this.#move('done', { step: undefined, anchor: undefined, message: undefined })
    const completed = this.#completed.size
    const skipped = this.#skipped.size
    this.#emit({ type: 'done', completed, skipped })
    this.#finish(ok({ completed, skipped }))
  }

  /**
   * Why a step cannot be taken at all: no such tool (as a person would see the page), or no such
   * field. A tool a `do` call may not use says so when it is called.
   */
  #problem(step: TourStep): { reason: string; message: string } | undefined {
    const entry = this.#tm
      .manifest({ caller: 'human', detail: 'full' })
      .tools.find((tool) => tool.name === step.tool)
    if (!entry) {
      return { reason: 'unknown_tool', message: `No tool "${step.tool}" on this page` }
    }
    // A form's fill takes its fields under `values`.
    const schema = entry.inputSchema
    const values = isPlainObject(schema?.properties) ? schema.properties.values : undefined
    if (
      step.field !== undefined &&
      !hasField(schema, step.field) &&
      !(isPlainObject(values) && hasField(values as JsonSchema, step.field))
    ) {
      return {
        reason: 'unknown_field',
        message: `Tool "${step.tool}" has no field "${step.field}"`,
      }
    }
    return undefined
  }

  /** `guide`: waits until the person has done the step, checking after each of their changes. */
  #guide(index: number, step: TourStep): void {
    const tm = this.#tm
    const check = anchorsOf(tm)?.checker(step.tool)
    let looking = 0
    const look = (told: boolean) => {
      const mine = ++looking
      void Promise.resolve(check ? check(step.field) : { done: told }).then(
        (answer) => {
          if (mine !== looking || this.#snapshot.index !== index || !this.#open()) return
          if (answer.done) {
            this.#complete(index)
            return this.#enter(index + 1)
          }
          if (!told) return
          const message = answer.message ?? 'This step is not done yet.'
          this.#move('waiting', { message })
          this.#emit({ type: 'step_invalid', index, step, reason: 'not_done', message })
        },
        () => {},
      )
    }
    // Interactions arrive in the event's capture phase, before the form's own handlers have
    // stored the new value (react-hook-form's onChange): look once the event has been handled.
    let later: ReturnType<typeof setTimeout> | undefined
    const offInteraction = tm.events.on('interaction', (event) => {
      if (event.tool !== step.tool) return
      // A field step hears its field; a tool step the tool itself (its button, its form's submit).
      if (event.param !== step.field) return
      // A field is checked as it changes; the tool itself when the person submits or clicks it.
      const counts =
        step.field !== undefined
          ? event.type === 'input' || event.type === 'change'
          : event.type === 'submit' || event.type === 'click'
      if (!counts) return
      clearTimeout(later)
      later = setTimeout(() => look(true), 0)
    })
    const offResult = tm.events.on('result', (event) => {
      if (event.tool === step.tool && event.caller === 'human' && event.result.status === 'ok') {
        this.#complete(index)
        this.#enter(index + 1)
      }
    })
    this.#leaveStep = () => {
      looking++
      clearTimeout(later)
      offInteraction()
      offResult()
    }
    this.#move('waiting', {})
    // A field that holds a good value already is done; nothing to tell when it is not.
    if (step.field !== undefined && check) look(false)
  }

  /** `do`: after a pause, calls the step's tool as caller `tour` and moves on with its result. */
  #do(index: number, step: TourStep): void {
    const tm = this.#tm
    let left = false
    const timer = setTimeout(() => {
      const input = step.input ?? this.#inputFor(step)
      const options: CallOptions = {
        caller: 'tour',
        signal: this.#controller.signal,
        // The step acts for whoever started the tour: it meets their policy as well as the tour's.
        actingFor: this.#startedBy,
        // The step's own confirmation: the tour waits while a person decides.
        observe: {
          confirm: (event) => {
            if (left) return
            if (event.status === 'pending') this.#move('confirming', {})
            else if (this.#snapshot.status === 'confirming') this.#move('running', {})
          },
        },
      }
      void tm.call(step.tool, input, options).then((result) => this.#afterCall(index, step, result))
    }, pauseOf(this.#options))
    this.#leaveStep = () => {
      left = true
      clearTimeout(timer)
    }
  }

  /** A field step's input: as the tool's anchor source writes a field, else `{ [field]: value }`. */
  #inputFor(step: TourStep): unknown {
    if (step.field === undefined) return {}
    const write = anchorsOf(this.#tm)?.inputFor(step.tool)
    return write ? write(step.field, step.value) : inputFor(step.field, step.value)
  }

  #afterCall(index: number, step: TourStep, result: ToolResult): void {
    if (this.#snapshot.index !== index || !this.#open()) return
    if (this.#snapshot.status === 'confirming') this.#move('running', {})
    if (result.status === 'ok') {
      this.#complete(index)
      return this.#enter(index + 1)
    }
    // The person said no: the tour does not go on without them.
    if (result.status === 'cancelled') return this.stop()
    const message = 'message' in result && result.message ? result.message : result.status
    this.#skip(index)
    this.#emit({ type: 'step_invalid', index, step, reason: result.status, message })
    this.#enter(index + 1)
  }

  #complete(index: number): void {
    this.#skipped.delete(index)
    this.#completed.add(index)
  }

  #skip(index: number): void {
    if (!this.#completed.has(index)) this.#skipped.add(index)
  }

  #leave(): void {
    const leave = this.#leaveStep
    this.#leaveStep = undefined
    leave?.()
  }

  #move(status: TourStatus, patch: Partial<Omit<TourSnapshot, 'status' | 'mode'>>): void {
    const from = this.#snapshot
    TOUR_MOVES.check(from.status, status)
    const next: TourSnapshot = { ...from, ...patch, status }
    for (const key of ['step', 'anchor', 'message'] as const) {
      if (next[key] === undefined) delete next[key]
    }
    if (
      next.status === from.status &&
      next.index === from.index &&
      next.steps === from.steps &&
      next.anchor === from.anchor &&
      next.message === from.message
    ) {
      return
    }
    this.#snapshot = Object.freeze(next)
    this.notify()
  }

  #emit(event: TourEvent): void {
    this.#early?.push(event)
    for (const listener of [...this.#listeners]) this.#tell(listener, event)
  }

  #tell(listener: (event: TourEvent) => void, event: TourEvent): void {
    try {
      listener(event)
    } catch (cause) {
      this.report({ code: 'listener_threw', message: 'A tour listener threw', cause })
    }
  }
}

const pauseOf = (options: TourOptions): number =>
  typeof options.pauseMs === 'number' && options.pauseMs >= 0 ? options.pauseMs : DEFAULT_PAUSE_MS

/** `{ a: { b: value } }` for `a.b`. */
function inputFor(field: string, value: unknown): Record<string, unknown> {
  const root: Record<string, unknown> = {}
  let at = root
  const parts = field.split('.')
  parts.forEach((part, i) => {
    if (i === parts.length - 1) at[part] = value
    else at = at[part] = {} as Record<string, unknown>
  })
  return root
}

/** Whether a JSON Schema has the field at this dot path (a schema that says nothing accepts it). */
function hasField(schema: JsonSchema | undefined, field: string): boolean {
  let at: unknown = schema
  for (const part of field.split('.')) {
    if (!isPlainObject(at)) return true
    const properties = at.properties
    if (!isPlainObject(properties)) return at.additionalProperties !== false
    if (!Object.prototype.hasOwnProperty.call(properties, part)) return false
    at = properties[part]
  }
  return true
}
