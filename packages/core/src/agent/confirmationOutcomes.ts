import { deepFreeze } from '../base/results'
import type { ToolResult } from '../types'
import type { PageConfirmedEvent, PageOutcomeOptions } from './pageClientTypes'

/** Confirmations awaited at once (a page keeps at most 100 pending by default). */
const MAX_CONFIRMATIONS = 1024
/** Outcomes remembered for an `outcome()` that comes after them. */
const OUTCOME_MEMORY = 256

const UNKNOWN_CONFIRMATION: ToolResult = deepFreeze({
  status: 'refused',
  code: 'confirmation_expired',
  message: 'This client is not waiting for that confirmation and no longer remembers its outcome',
})

const abortError = (message: string): Error => {
  const error = new Error(message)
  error.name = 'AbortError'
  return error
}

/** An aborted signal's reason, or an `AbortError` when the runtime gives none. */
const reasonOf = (signal: AbortSignal): unknown =>
  signal.reason ?? abortError('The wait for the outcome was aborted')

interface OutcomeWaiter {
  resolve: (result: ToolResult) => void
  reject: (reason: unknown) => void
}

/** The deferred confirmations a page client's calls received, and the waits on their outcomes. */
export interface ConfirmationOutcomes {
  /** A call's result asked for `confirmId` on page `clientId`: its `confirmed` is awaited. */
  awaiting(confirmId: string, clientId: string, tool: string): void
  /** A page's `confirmed`: ignored unless this client awaits it from that page. */
  confirmed(clientId: string, confirmId: string, result: ToolResult): void
  /** `client.outcome`: the final result of an awaited or remembered confirmation. */
  outcome(confirmId: string, options?: PageOutcomeOptions): Promise<ToolResult>
  /** Ends every wait with an `AbortError` and forgets every confirmation (the client closed). */
  close(): void
}

/**
 * Tracks deferred confirmations until their `confirmed` arrives, remembers the latest outcomes,
 * and resolves `outcome()` waits. `isClosed`: whether the client has closed; `onConfirmed`
 * hears each outcome after the waits on it are resolved.
 */
export function createConfirmationOutcomes(options: {
  isClosed: () => boolean
  onConfirmed: (event: PageConfirmedEvent) => void
}): ConfirmationOutcomes {
  const { isClosed, onConfirmed } = options
  const awaitedConfirmations = new Map<string, { clientId: string; tool: string }>()
  const outcomes = new Map<string, ToolResult>()
  const waiters = new Map<string, Set<OutcomeWaiter>>()

  const settleWaiters = (confirmId: string, settle: (waiter: OutcomeWaiter) => void) => {
    const set = waiters.get(confirmId)
    if (!set) return
    waiters.delete(confirmId)
    for (const waiter of [...set]) settle(waiter)
  }

  return {
    awaiting(confirmId, clientId, tool) {
      awaitedConfirmations.set(confirmId, { clientId, tool })
      if (awaitedConfirmations.size > MAX_CONFIRMATIONS) {
        // Its `confirmed` will be ignored from now on: whoever waits learns it now.
        const evicted = awaitedConfirmations.keys().next().value!
        awaitedConfirmations.delete(evicted)
        settleWaiters(evicted, (waiter) => waiter.resolve(UNKNOWN_CONFIRMATION))
      }
    },
    confirmed(clientId, confirmId, received) {
      const awaited = awaitedConfirmations.get(confirmId)
      if (awaited?.clientId !== clientId) return
      awaitedConfirmations.delete(confirmId)
      const result = deepFreeze(received)
      outcomes.set(confirmId, result)
      if (outcomes.size > OUTCOME_MEMORY) outcomes.delete(outcomes.keys().next().value!)
      settleWaiters(confirmId, (waiter) => waiter.resolve(result))
      onConfirmed({ clientId, confirmId, tool: awaited.tool, result })
    },
    outcome(confirmId, outcomeOptions = {}) {
      const { signal } = outcomeOptions
      if (isClosed()) return Promise.reject(abortError('The page client is closed'))
      if (signal?.aborted) return Promise.reject(reasonOf(signal))
      const known = typeof confirmId === 'string' ? outcomes.get(confirmId) : undefined
      if (known) return Promise.resolve(known)
      if (typeof confirmId !== 'string' || !awaitedConfirmations.has(confirmId)) {
        return Promise.resolve(UNKNOWN_CONFIRMATION)
      }
      return new Promise<ToolResult>((resolve, reject) => {
        let set = waiters.get(confirmId)
        if (!set) waiters.set(confirmId, (set = new Set()))
        const done = () => {
          signal?.removeEventListener('abort', onAbort)
          const current = waiters.get(confirmId)
          current?.delete(waiter)
          if (current?.size === 0) waiters.delete(confirmId)
        }
        const waiter: OutcomeWaiter = {
          resolve: (result) => (done(), resolve(result)),
          reject: (reason) => (done(), reject(reason)),
        }
        const onAbort = () => waiter.reject(reasonOf(signal!))
        set.add(waiter)
        signal?.addEventListener('abort', onAbort, { once: true })
      })
    },
    close() {
      for (const confirmId of [...waiters.keys()]) {
        settleWaiters(confirmId, (waiter) =>
          waiter.reject(abortError('The page client closed before the outcome arrived')),
        )
      }
      outcomes.clear()
      awaitedConfirmations.clear()
    },
  }
}
