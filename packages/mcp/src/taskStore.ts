import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js'
import type { Task } from '@modelcontextprotocol/sdk/types.js'

/**
 * The SDK's in-memory task store, which also tells the server when a task is cancelled: the SDK
 * answers `tasks/cancel` itself by moving the task to `cancelled` here, and the call behind the
 * task must then stop (its pending confirmation withdrawn in the page).
 */
export class CancellableTaskStore extends InMemoryTaskStore {
  readonly #onCancel = new Map<string, () => void>()

  /** Runs `listener` once if the task is cancelled; returns a function that forgets it. */
  onCancel(taskId: string, listener: () => void): () => void {
    this.#onCancel.set(taskId, listener)
    return () => {
      if (this.#onCancel.get(taskId) === listener) this.#onCancel.delete(taskId)
    }
  }

  override async updateTaskStatus(
    taskId: string,
    status: Task['status'],
    statusMessage?: string,
    sessionId?: string,
  ): Promise<void> {
    await super.updateTaskStatus(taskId, status, statusMessage, sessionId)
    if (status !== 'cancelled') return
    const listener = this.#onCancel.get(taskId)
    this.#onCancel.delete(taskId)
    listener?.()
  }
}
