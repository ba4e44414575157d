import type { AnchorElement, Caller, Manifest, ToolResult } from '../types'

/**
 * How a tour goes: `show` points at each step's element in turn (the person moves on); `guide`
 * waits at each step until the person has done it, and says what is wrong when it is not; `do`
 * calls each step's tool as caller `tour` while the person watches, through the same policy,
 * queue and confirmation as any agent, on behalf of the caller that started the tour.
 */
export type TourMode = 'show' | 'guide' | 'do'

/** One step: a tool (and one of its fields), never a CSS selector. */
export interface TourStep {
  /** The tool's full name, as in the manifest (`tickets.new.fill`). */
  tool: string
  /** One of the tool's input fields (a dot path), when the step is about that field. */
  field?: string
  /** Up to 200 characters, shown as text. */
  title: string
  /** Up to 2,000 characters, shown as text (never HTML). */
  text: string
  /** `do`: the tool's input. Default: `{ [field]: value }` for a field step, else `{}`. */
  input?: unknown
  /** `do`: the value a field step writes (through the tool's input). */
  value?: unknown
}

/** Plans a tour's steps for a goal from the in-app manifest (a model, or a table of the app's own). */
export type TourPlanner = (
  goal: string,
  manifest: Manifest,
) => readonly TourStep[] | Promise<readonly TourStep[]>

/** Who a tour acts for: an agent caller a policy names (never `human` or `tour`). */
export type TourStarter = Exclude<Caller, 'human' | 'tour'>

/** Options of `startTour`: the steps, or a goal and a planner that makes them. */
export type TourOptions = {
  mode: TourMode
  /**
   * `do`: the caller the tour acts for. Each step must pass that caller's policy (tools, classes,
   * grants, verification, rate limit) and `policy.tour`, the stricter winning; a grant given on
   * a step covers only this caller's later tour steps. Default `'inapp'`.
   */
  startedBy?: TourStarter
  /** `do`: the pause before each step's call, in ms, so a person can follow (default 600). */
  pauseMs?: number
} & ({ steps: readonly TourStep[] } | { goal: string; planner: TourPlanner })

/**
 * Where a tour is: `running` (on a step, or planning), `waiting` (`guide`: for the person),
 * `confirming` (`do`: the step's call waits for the person's approval), then `done` or
 * `stopped`.
 */
export type TourStatus = 'running' | 'waiting' | 'confirming' | 'done' | 'stopped'

/** A tour's state, for a UI. The same object until something changes. */
export interface TourSnapshot {
  status: TourStatus
  mode: TourMode
  /** The steps (none yet while a planner works). */
  steps: readonly TourStep[]
  /** The current step's place; `-1` before the first. */
  index: number
  step?: TourStep
  /** The current step's element on the page. */
  anchor?: AnchorElement
  /** `guide`: what is still wrong with the step; `do`: why its call did not go through. */
  message?: string
}

/** What a tour tells as it goes. */
export type TourEvent =
  | { type: 'step_entered'; index: number; step: TourStep }
  /** The step's tool or field is unknown, its input is refused, or (`guide`) it is not done yet. */
  | { type: 'step_invalid'; index: number; step: TourStep; reason: string; message: string }
  /** The step's tool or field is not on the page now. */
  | { type: 'anchor_missing'; index: number; step: TourStep }
  | { type: 'step_skipped'; index: number; step: TourStep; reason: string }
  | { type: 'done'; completed: number; skipped: number }
  | { type: 'stopped'; index: number }

/** A running tour. */
export interface Tour {
  subscribe(listener: () => void): () => void
  getSnapshot(): TourSnapshot
  /** Listens to the tour's events; returns an unsubscribe. */
  on(listener: (event: TourEvent) => void): () => void
  /** `show` and `guide`: the next step (`guide`: skipping one not done yet). */
  next(): void
  /** `show` and `guide`: the step before. */
  back(): void
  /** Ends the tour (`stopped`); a `do` call under way is cancelled. */
  stop(): void
  /**
   * How the tour ended: `ok({ completed, skipped })` when done, `cancelled` when stopped,
   * `invalid` (naming the step and field) when its steps were refused before it began.
   */
  readonly finished: Promise<ToolResult>
}
