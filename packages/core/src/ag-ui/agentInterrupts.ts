import type { AgUiInterrupt, AgUiResumeEntry } from './agUiTypes'

/**
 * The interrupts the agent raised itself in its last run, and the answers given to them so far:
 * the page shows them as they are and hands the answers to the next run (`resume`), each once.
 */
export class AgentInterrupts {
  #open: AgUiInterrupt[] = []
  #answers: AgUiResumeEntry[] = []

  /** The ones still open, in the order the run raised them. */
  get open(): readonly AgUiInterrupt[] {
    return this.#open
  }

  /** The run ended with these interrupts. */
  raised(interrupts: readonly AgUiInterrupt[]): void {
    this.#open = [...interrupts]
  }

  /** Answers an open one (the last answer of an id wins); `false` when `id` is not open. */
  answer(id: string, entry: AgUiResumeEntry): boolean {
    if (!this.#open.some((interrupt) => interrupt.id === id)) return false
    this.#answers = [...this.#answers.filter((answer) => answer.interruptId !== id), entry]
    this.#open = this.#open.filter((interrupt) => interrupt.id !== id)
    return true
  }

  /** The answers for the next run; given once. */
  takeAnswers(): AgUiResumeEntry[] {
    const answers = this.#answers
    this.#answers = []
    return answers
  }

  clear(): void {
    this.#open = []
    this.#answers = []
  }
}
