import { deepFreeze, refuse } from '../base/results'
import type { ConfirmationAnswer, ToolResult } from '../types'

const NOT_AN_ID = (): ToolResult =>
  deepFreeze(
    refuse('confirmation_expired', 'A confirmation id is a string: this one names no entry'),
  )
const unknownId = () => {
  const result = Promise.resolve(NOT_AN_ID())
  return { taken: result, result }
}

/** One id of a batch: `known` when it is a string, which alone can name an entry. */
interface BatchItem {
  id: string
  known: boolean
}

/**
 * What answering one id of a batch gives: `taken` once its answer was given (the next id may be
 * asked then), and the `result` of its run.
 */
export interface BatchAnswer {
  taken: Promise<unknown>
  result: Promise<ToolResult>
}

/** The ids a batch was given, read once; a list that throws while read names none. */
const readList = (ids: unknown): unknown[] => {
  try {
    return Array.isArray(ids) ? Array.from(ids as unknown[]) : []
  } catch {
    return []
  }
}

/** How an answer names an id that is not a string; one whose conversion throws gets a fixed text. */
const textOf = (id: unknown): string => {
  try {
    return String(id)
  } catch {
    return '[unreadable id]'
  }
}

/**
 * The distinct ids of a batch in queue order: the open ones as `queue` holds them, then the
 * others in the order given. Each id is answered once, whatever the batch repeats.
 */
const batchOrder = (queue: Iterable<string>, ids: unknown): BatchItem[] => {
  const given = readList(ids)
  const named = new Set(given.filter((id): id is string => typeof id === 'string'))
  const queued = [...queue].filter((id) => named.has(id))
  const rest: BatchItem[] = []
  const seen = new Set<unknown>(queued)
  for (const id of given) {
    if (seen.has(id)) continue
    seen.add(id)
    // Only a string names an entry: anything else (a number, an object whose toString could
    // name another entry or throw) is answered refused under its text, and the batch goes on.
    rest.push(typeof id === 'string' ? { id, known: true } : { id: textOf(id), known: false })
  }
  return [...queued.map((id) => ({ id, known: true })), ...rest]
}

/**
 * Answers a batch one entry after another, so runs start in queue order (each approval, and
 * its passkey, is given before the next is asked); overlapping batches take turns (a second
 * batch naming the same entries finds them answered, never runs them). A batch waits for its
 * answers to be given, not for the runs to end: a run that asks the person something (its
 * `ctx.confirm`, its `ctx.ask`) can be answered by another batch meanwhile.
 *
 * `queue` gives the open ids, oldest first, when a batch's turn comes.
 */
export function createBatchAnswers(queue: () => Iterable<string>) {
  let batches: Promise<unknown> = Promise.resolve()
  return (ids: unknown, answer: (id: string) => BatchAnswer): Promise<ConfirmationAnswer[]> => {
    const turn = batches.then(async () => {
      const given: { id: string; result: Promise<ToolResult> }[] = []
      for (const { id, known } of batchOrder(queue(), ids)) {
        const { taken, result } = known ? answer(id) : unknownId()
        given.push({ id, result })
        await taken
      }
      return given
    })
    // `approve` and `reject` never reject and the order is read without throwing; should anything
    // still fail, the next batch takes its turn all the same.
    batches = turn.then(
      () => undefined,
      () => undefined,
    )
    return turn.then((given) =>
      Promise.all(given.map(async ({ id, result }) => ({ id, result: await result }))),
    )
  }
}
