import type { ConfirmationEntry, Toolmark, ToolResult } from '../types'
import { approvedRunResult } from './recordSession'

/** What the page emitted during a replay, by live call id, and a way to wait for what is next. */
export interface ReplayObserver {
  /** A live call's result number `index` (0-based), once it came. */
  result(callId: string, index: number): ToolResult | undefined
  /** A live call's confirmation request number `index` (0-based), once it came. */
  confirmation(callId: string, index: number): ConfirmationEntry | undefined
  /** Runs `start` and returns the id of the call it made, from the `call` event it emitted. */
  callIdOf(start: () => void): string | undefined
  /**
   * Resolves with `read()` once it is defined, or with one last `read()` after the timeout. Once a
   * wait has run out the replay has drifted: later waits end once the page has been silent (no
   * result, no confirmation) for the timeout, counted from that first run-out or the page's last
   * answer, whichever is later. Calls the late one held up still get their results, while a page
   * that stopped answering ends the replay one timeout after the run-out, however many lines are
   * missing.
   */
  until<T>(read: () => T | undefined): Promise<T | undefined>
  /** Stops listening to the page. */
  stop(): void
}

/** Appends to the list kept under `key`. */
function append<T>(lists: Map<string, T[]>, key: string, value: T): void {
  const list = lists.get(key) ?? []
  list.push(value)
  lists.set(key, list)
}

/**
 * Listens to a page for `replaySession`: the page's events arrive in their own time, while the
 * replay reads them in the recording's order, so everything is kept and every waiter is checked
 * again on each change.
 */
export function createReplayObserver(tm: Toolmark, timeoutMs: number): ReplayObserver {
  const confirmsByCall = new Map<string, ConfirmationEntry[]>()
  const resultsByCall = new Map<string, ToolResult[]>()
  const waiters = new Set<() => void>()
  const poke = () => {
    for (const waiter of [...waiters]) waiter()
  }
  /** A call's next result: its `result` event, or an approved deferred run's outcome. */
  const resultOf = (callId: string, result: ToolResult) => {
    append(resultsByCall, callId, result)
    poke()
  }
  let lastCallId: string | undefined
  /** When the first wait ran out (ms since the epoch); `undefined` while none has. */
  let ranOutAt: number | undefined
  /** When the page last answered: a result or a confirmation event. */
  let answeredAt = 0
  /** When waits after a run-out end: one timeout after the run-out or the page's last answer. */
  const quietUntil = (since: number) => Math.max(since, answeredAt) + timeoutMs
  const offs = [
    tm.events.on('call', (e) => {
      lastCallId = e.callId
    }),
    tm.events.on('result', (e) => {
      answeredAt = Date.now()
      resultOf(e.callId, e.result)
    }),
    tm.events.on('confirm', (e) => {
      answeredAt = Date.now()
      const ran = approvedRunResult(e)
      if (ran) resultOf(e.entry.callId, ran)
      if (e.status !== 'pending') return
      append(confirmsByCall, e.entry.callId, e.entry)
      poke()
    }),
    tm.subscribe(poke),
  ]

  return {
    result: (callId, index) => resultsByCall.get(callId)?.[index],
    confirmation: (callId, index) => confirmsByCall.get(callId)?.[index],
    callIdOf(start) {
      lastCallId = undefined
      start()
      return lastCallId
    },
    until<T>(read: () => T | undefined): Promise<T | undefined> {
      const now = read()
      if (now !== undefined) return Promise.resolve(now)
      // After a run-out a wait lasts while the page still answers: a call the late one held up
      // (queued behind it in its scope, or made after its wait gave up) is not drift.
      const drifted = ranOutAt
      if (drifted !== undefined && quietUntil(drifted) <= Date.now()) return Promise.resolve(now)
      return new Promise((resolve) => {
        let timer: ReturnType<typeof setTimeout>
        const done = (value: T | undefined) => {
          clearTimeout(timer)
          waiters.delete(check)
          resolve(value)
        }
        const check = () => {
          const value = read()
          if (value !== undefined) done(value)
        }
        const expire = () => {
          if (drifted === undefined) {
            ranOutAt ??= Date.now()
            done(read())
            return
          }
          // An answer since the timer was set moves the end on.
          const left = quietUntil(drifted) - Date.now()
          if (left > 0) timer = setTimeout(expire, left)
          else done(read())
        }
        timer = setTimeout(
          expire,
          drifted === undefined ? timeoutMs : quietUntil(drifted) - Date.now(),
        )
        waiters.add(check)
      })
    },
    stop() {
      for (const off of offs) off()
    },
  }
}
