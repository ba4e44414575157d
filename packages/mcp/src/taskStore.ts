import { randomBytes } from 'node:crypto'
import {
  isTerminal,
  type CreateTaskOptions,
  type TaskStore,
} from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js'
import type { Request, RequestId, Result, Task } from '@modelcontextprotocol/sdk/types.js'

/** The longest delay a timer takes; a longer one would fire at once. */
const MAX_TTL_MS = 2_147_483_647

/** One task as the store holds it. */
interface Held {
  readonly task: Task
  readonly sessionId: string | undefined
  result?: Result
  /** Deletes the task when its time to live runs out. */
  timer?: ReturnType<typeof setTimeout>
  /** Stops the call behind the task, while it runs. */
  end?: () => void
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
 */
export class EndingTaskStore implements TaskStore {
  readonly #tasks = new Map<string, Held>()

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
    const held: Held = { task, sessionId }
    this.#tasks.set(taskId, held)
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
    const PAGE = 10
    const ids = [...this.#tasks.keys()].filter((id) => this.#find(id, sessionId))
    let start = 0
    if (cursor) {
      const at = ids.indexOf(cursor)
      if (at < 0) throw new Error(`Invalid cursor: ${cursor}`)
      start = at + 1
    }
    const page = ids.slice(start, start + PAGE)
    const tasks = page.map((id) => ({ ...this.#tasks.get(id)!.task }))
    return start + PAGE < ids.length ? { tasks, nextCursor: page.at(-1)! } : { tasks }
  }

  #find(taskId: string, sessionId: string | undefined): Held | undefined {
    const held = this.#tasks.get(taskId)
    if (!held) return undefined
    const foreign =
      sessionId !== undefined && held.sessionId !== undefined && held.sessionId !== sessionId
    return foreign ? undefined : held
  }

  #found(taskId: string, sessionId: string | undefined): Held {
    const held = this.#find(taskId, sessionId)
    if (!held) throw new Error(`Task ${taskId} not found`)
    return held
  }

  #move(held: Held, status: Task['status']): void {
    held.task.status = status
    held.task.lastUpdatedAt = new Date().toISOString()
    if (isTerminal(status)) this.#keep(held)
  }

  /** (Re)starts the time to live. */
  #keep(held: Held): void {
    clearTimeout(held.timer)
    const ttl = held.task.ttl
    if (ttl === null) return
    held.timer = setTimeout(() => this.#expire(held), ttl)
    held.timer.unref?.()
  }

  /** The time to live ran out: the task is gone, and a call still behind it stops now. */
  #expire(held: Held): void {
    if (this.#tasks.get(held.task.taskId) === held) this.#tasks.delete(held.task.taskId)
    this.#end(held)
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

/** A positive whole number of ms, at most what a timer takes; none (unlimited) otherwise. */
function grantedTtl(ttl: number | null | undefined): number | null {
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0) return null
  return Math.min(Math.ceil(ttl), MAX_TTL_MS)
}
