import { StatusTable } from '../base/statusTable'
import { reportError } from '../events/reportError'
import { Subscribable } from '../events/subscribable'
import type { ErrorEvent, Toolmark } from '../types'
import type { AgUiInterrupt } from './agUiTypes'

/** Where the session is. */
export type AgUiSessionStatus = 'idle' | 'running' | 'interrupted'

/** A session's state, for a UI. The same object until something changes. */
export interface AgUiSessionSnapshot {
  status: AgUiSessionStatus
  /** The open interrupts: the page's approvals and the agent's own. */
  interrupts: readonly AgUiInterrupt[]
  /** Why the last turn failed, until the next one starts. */
  error?: string
}

/**
 * Every move of a session's status, from → to. A move that is not here is a bug in the session:
 * it throws, naming the move. Staying put is no move (the interrupts may still change).
 */
export const SESSION_MOVES = /* @__PURE__ */ new StatusTable<AgUiSessionStatus>(
  'An AG-UI session',
  {
    // running: `send` starts a turn.
    idle: ['running'],
    // interrupted: the turn waits for answers; idle: it ended (answered, failed, stopped).
    running: ['interrupted', 'idle'],
    // running: every interrupt is answered and the turn goes on; idle: stopped.
    interrupted: ['running', 'idle'],
  },
  true,
)

const IDLE: AgUiSessionSnapshot = Object.freeze({ status: 'idle', interrupts: Object.freeze([]) })

/**
 * The one owner of a session's snapshot: it moves the status by `SESSION_MOVES`, keeps the snapshot the
 * same object until something changes, and notifies only then. `useSyncExternalStore` reads it
 * bare (`subscribe`, `getSnapshot`).
 */
export class AgUiSessionState extends Subscribable {
  protected readonly label = 'AG-UI session'
  #snapshot = IDLE
  readonly #tm: Toolmark

  constructor(tm: Toolmark) {
    super()
    this.#tm = tm
  }

  protected report(event: ErrorEvent): void {
    reportError(this.#tm, event)
  }

  readonly getSnapshot = (): AgUiSessionSnapshot => this.#snapshot

  get status(): AgUiSessionStatus {
    return this.#snapshot.status
  }

  /** Moves to `status` (a `SESSION_MOVES` move, or staying put) with these interrupts and error. */
  move(
    status: AgUiSessionStatus,
    interrupts: readonly AgUiInterrupt[] = this.#snapshot.interrupts,
    error?: string,
  ): void {
    const from = this.#snapshot
    SESSION_MOVES.check(from.status, status)
    if (status === from.status && sameList(interrupts, from.interrupts) && error === from.error) {
      return
    }
    const next: AgUiSessionSnapshot = { status, interrupts: Object.freeze([...interrupts]) }
    if (error !== undefined) next.error = error
    this.#snapshot = Object.freeze(next)
    this.notify()
  }

  /** The open interrupts changed; the status stays. */
  interrupts(interrupts: readonly AgUiInterrupt[]): void {
    this.move(this.#snapshot.status, interrupts, this.#snapshot.error)
  }
}

function sameList(a: readonly AgUiInterrupt[], b: readonly AgUiInterrupt[]): boolean {
  return a === b || (a.length === b.length && a.every((item, i) => item === b[i]))
}
