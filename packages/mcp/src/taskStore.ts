import { randomBytes } from 'node:crypto'
import {
  isTerminal,
  type CreateTaskOptions,
  type TaskStore,
} from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js'
import {
  ErrorCode,
  McpError,
  type Request,
  type RequestId,
  type Result,
  type Task,
} from '@modelcontextprotocol/sdk/types.js'

/** The longest delay a timer takes; a longer one would fire at once. */
const MAX_TTL_MS = 2_147_483_647

/**
 * The time to live of a task whose call asks for none (or for one not above 0): one hour, well
 * past a confirmation's default expiry (10 minutes), so a person deciding in time is never cut
 * off, yet a task nobody reads does not stay for the life of the process.
 */
export const DEFAULT_TASK_TTL_MS = 3_600_000

/** How many tasks one server keeps at once, working and finished (the default of `maxTasks`). */
export const MAX_LIVE_TASKS = 1_000

/** Tasks per `tasks/list` page. */
const TASK_PAGE_SIZE = 10

/** One task as the store holds it. */
interface Held {
  readonly task: Task
  /** Its place in creation order: what a `tasks/list` cursor names. */
  readonly seq: number
  readonly sessionId: string | undefined
  result?: Result
  /** Deletes the task when its time to live runs out. */
  timer?: ReturnType<typeof setTimeout>
  /** Stops the call behind the task, while it runs. */
  end?: () => void
}

/** Options of {@link EndingTaskStore}. */
export interface EndingTaskStoreOptions {
  /** Tasks kept at once, working and finished (default {@link MAX_LIVE_TASKS}). */
  maxTasks?: number
}

/**
 * The tasks of one server, in memory, with what the SDK's own in-memory store lacks: the call
 * behind a task hears of the task's end. The SDK answers `tasks/cancel` itself by moving the
 * task to `cancelled` here; the time to live runs out here, and the task is deleted. Either way
 * the call must stop at once, in the same turn, so its pending confirmation is withdrawn in the
 * page before anything else runs: a person's approval after that finds nothing to approve.
 *
 * The time to live counts from creation, and again from the moment the task finished (so a
 * result stays readable that long); then the task is gone, as the specification allows. A task
 * created with a session id is found only for that session (or for a caller naming none).
 *
 * It keeps at most `maxTasks`: a new task drops the task that finished first, and is refused
 * (`-32600`) while every task kept is still working, so no client grows the store without end.
 */
export class EndingTaskStore implements TaskStore {
  readonly #tasks = new Map<string, Held>()
  /** The tasks in creation order (`seq` ascending), so a `tasks/list` page starts at its cursor. */
  readonly #order: Held[] = []
  /** The finished tasks, the first to finish first: the ones a full store drops. */
  readonly #finished = new Set<Held>()
  readonly #maxTasks: number
  #seq = 0

  constructor(options: EndingTaskStoreOptions = {}) {
    this.#maxTasks = Math.max(1, options.maxTasks ?? MAX_LIVE_TASKS)
  }

  /**
   * Runs `listener` once when the task ends before its call does: cancelled, or its time to live
   * ran out. At once when the task is already gone or finished. Returns a function that forgets
   * the listener (the call finished).
   */
  onEnd(taskId: string, listener: () => void): () => void {
    const held = this.#tasks.get(taskId)
    if (!held || isTerminal(held.task.status)) {
      listener()
      return () => {}
    }
    held.end = listener
    return () => {
      if (held.end === listener) held.end = undefined
    }
  }

  async createTask(
    params: CreateTaskOptions,
    _requestId: RequestId,
    _request: Request,
    sessionId?: string,
  ): Promise<Task> {
    if (this.#tasks.size >= this.#maxTasks) {
      const oldest = this.#finished.values().next().value
      if (!oldest) {
        throw new McpError(
          ErrorCode.InvalidRequest,
          `toolmark-mcp keeps at most ${this.#maxTasks} tasks and none of them has finished: wait for one to finish, or cancel one (tasks/cancel), then call again`,
          { maxTasks: this.#maxTasks },
        )
      }
      this.#delete(oldest)
    }
    let taskId = randomBytes(16).toString('hex')
    while (this.#tasks.has(taskId)) taskId = randomBytes(16).toString('hex')
    const now = new Date().toISOString()
    const task: Task = {
      taskId,
      status: 'working',
      // The specification lets the server choose: the one it keeps is the one it reports.
      ttl: grantedTtl(params.ttl),
      createdAt: now,
      lastUpdatedAt: now,
      pollInterval: params.pollInterval ?? 1000,
    }
    const held: Held = { task, seq: ++this.#seq, sessionId }
    this.#tasks.set(taskId, held)
    this.#order.push(held)
    this.#keep(held)
    return { ...task }
  }

  async getTask(taskId: string, sessionId?: string): Promise<Task | null> {
    const held = this.#find(taskId, sessionId)
    return held ? { ...held.task } : null
  }

  async storeTaskResult(
    taskId: string,
    status: 'completed' | 'failed',
    result: Result,
    sessionId?: string,
  ): Promise<void> {
    const held = this.#found(taskId, sessionId)
    if (isTerminal(held.task.status)) {
      throw new Error(`Task ${taskId} is already ${held.task.status}; its result is stored once`)
    }
    held.result = result
    held.end = undefined
    this.#move(held, status)
  }

  async getTaskResult(taskId: string, sessionId?: string): Promise<Result> {
    const held = this.#found(taskId, sessionId)
    if (!held.result) throw new Error(`Task ${taskId} has no result stored`)
    return held.result
  }

  async updateTaskStatus(
    taskId: string,
    status: Task['status'],
    statusMessage?: string,
    sessionId?: string,
  ): Promise<void> {
    const held = this.#found(taskId, sessionId)
    if (isTerminal(held.task.status)) {
      throw new Error(`Task ${taskId} is already ${held.task.status}; it cannot become ${status}`)
    }
    if (statusMessage) held.task.statusMessage = statusMessage
    this.#move(held, status)
    if (status === 'cancelled') this.#end(held)
  }

  async listTasks(
    cursor?: string,
    sessionId?: string,
  ): Promise<{ tasks: Task[]; nextCursor?: string }> {
    let start = 0
    if (cursor) {
      // The cursor is the place of the page's last task, so a page goes on after it even when
      // that task is gone meanwhile.
      const after = /^[0-9]{1,15}$/.test(cursor) ? Number(cursor) : Number.NaN
      if (!(after <= this.#seq)) throw new Error(`Invalid cursor: ${cursor}`)
      start = this.#indexAfter(after)
    }
    const tasks: Task[] = []
    let last: Held | undefined
    for (let i = start; i < this.#order.length; i++) {
      const held = this.#order[i]
      if (!this.#visible(held, sessionId)) continue
      if (tasks.length === TASK_PAGE_SIZE) return { tasks, nextCursor: String(last!.seq) }
      tasks.push({ ...held.task })
      last = held
    }
    return { tasks }
  }

  /** The index in `#order` of the first task created after `seq`. */
  #indexAfter(seq: number): number {
    let low = 0
    let high = this.#order.length
    while (low < high) {
      const mid = (low + high) >>> 1
      if (this.#order[mid].seq <= seq) low = mid + 1
      else high = mid
    }
    return low
  }

  #visible(held: Held, sessionId: string | undefined): boolean {
    return sessionId === undefined || held.sessionId === undefined || held.sessionId === sessionId
  }

  #find(taskId: string, sessionId: string | undefined): Held | undefined {
    const held = this.#tasks.get(taskId)
    return held && this.#visible(held, sessionId) ? held : undefined
  }

  #found(taskId: string, sessionId: string | undefined): Held {
    const held = this.#find(taskId, sessionId)
    if (!held) throw new Error(`Task ${taskId} not found`)
    return held
  }

  #move(held: Held, status: Task['status']): void {
    held.task.status = status
    held.task.lastUpdatedAt = new Date().toISOString()
    if (isTerminal(status)) {
      this.#finished.add(held)
      this.#keep(held)
    }
  }

  /** (Re)starts the time to live. */
  #keep(held: Held): void {
    clearTimeout(held.timer)
    held.timer = setTimeout(() => this.#expire(held), held.task.ttl ?? DEFAULT_TASK_TTL_MS)
    held.timer.unref?.()
  }

  /** The time to live ran out: the task is gone, and a call still behind it stops now. */
  #expire(held: Held): void {
    this.#delete(held)
    this.#end(held)
  }

  /** Forgets a task everywhere it is kept. */
  #delete(held: Held): void {
    clearTimeout(held.timer)
    if (this.#tasks.get(held.task.taskId) !== held) return
    this.#tasks.delete(held.task.taskId)
    this.#finished.delete(held)
    const at = this.#indexAfter(held.seq - 1)
    if (this.#order[at] === held) this.#order.splice(at, 1)
  }

  #end(held: Held): void {
    const end = held.end
    held.end = undefined
    try {
      end?.()
    } catch {
      // Stopping the call cannot fail the store.
    }
  }
}

/** A positive whole number of ms, at most what a timer takes; the default one otherwise. */
function grantedTtl(ttl: number | null | undefined): number {
  if (typeof ttl !== 'number' || Number.isNaN(ttl) || ttl <= 0) return DEFAULT_TASK_TTL_MS
  return Math.min(Math.ceil(ttl), MAX_TTL_MS)
}
