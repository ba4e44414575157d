import { reportError, type Toolmark } from '@toolmark/core'
import { createSubscribable } from '@toolmark/core/observers'
import {
  forgetMcpSession,
  hasMcpSession,
  mcpPairing,
  type McpPairingOptions,
  type McpPairingRejection,
  type McpPairingStatus,
  type McpPairingStatusDetail,
} from './mcpPairing'
import { parseMcpPort } from './mcpPort'

/** Where a page's pairing stands, for a UI: `idle` when no pairing runs. */
export type McpPairingState = McpPairingStatus | 'idle'

/** A pairing's state. The same object until something changes. */
export interface McpPairingSnapshot {
  status: McpPairingState
  /** Set with `rejected`. */
  reason?: McpPairingRejection
  /** As in {@link McpPairingStatusDetail}: failed attempts in a row. */
  attempts?: number
  /** With `disconnected`: the delay before the next attempt, in ms. */
  retryInMs?: number
}

/** Options of {@link createMcpPairingObserver}: those of `mcpPairing`, but the code and `onStatus`. */
export type McpPairingObserverOptions = Omit<McpPairingOptions, 'code' | 'onStatus'>

/** One page's pairing with `toolmark-mcp`, as a store a UI can read. */
export interface McpPairingObserver {
  subscribe(listener: () => void): () => void
  getSnapshot(): McpPairingSnapshot
  /**
   * Pairs with this one-time code, or resumes the stored session when none is given; a pairing
   * already running is stopped first.
   */
  connect(code?: string): void
  /**
   * Resumes the stored session, when there is one; `false` (and nothing starts) otherwise. With a
   * `port` that is not a port it starts anyway, so the pairing reports the problem
   * (`rejected`, `invalid_port`; development throws) instead of staying idle without a word.
   */
  resume(): boolean
  /** Stops the pairing; the stored session stays, so `resume` can pick it up again. */
  stop(): void
  /** Stops the pairing and forgets the stored session: the next pairing needs a new code. */
  disconnect(): void
  /** The options the next `connect` uses (a mounted component pushes its props here). */
  setOptions(options: McpPairingObserverOptions): void
}

/**
 * Every move of a pairing's status, from → to: any state may go `idle` (stopped) or start again
 * (`connecting`, or `rejected` at once when there is nothing to send or no way to send it), and
 * `MOVES` adds what else each state may become. A move that is not allowed is a bug in the
 * pairing: it throws, naming the move.
 */
const ANY: readonly McpPairingState[] = ['idle', 'connecting', 'rejected']
const MOVES: { readonly [From in McpPairingState]?: readonly McpPairingState[] } = {
  // The handshake proved the server, failed (retry or give up), or was refused.
  connecting: ['paired', 'disconnected', 'superseded', 'unverified', 'unreachable'],
  // The connection dropped (retrying), or another page took over.
  paired: ['disconnected', 'superseded'],
  // The attempts ran out (a next attempt is disconnected again).
  disconnected: ['unverified', 'unreachable'],
}

/** Throws, naming the move, unless `MOVES` (or `ANY`, or staying put) allows it. */
export function checkPairingMove(from: McpPairingState, to: McpPairingState): void {
  if (to !== from && !ANY.includes(to) && !MOVES[from]?.includes(to)) {
    throw new Error(
      `[toolmark] An MCP pairing cannot move from ${from} to ${to}: the pairing broke its own order`,
    )
  }
}

const IDLE: McpPairingSnapshot = Object.freeze({ status: 'idle' })

/**
 * The one owner of a page's pairing state: it starts and stops `mcpPairing` on the registry,
 * moves its status by `MOVES`, and notifies only after a real change. Framework-free: a React
 * component reads it with `useSyncExternalStore` (`<McpPairing>`).
 *
 * @example
 * ```ts
 * const pairing = createMcpPairingObserver(tm, { port: 17840 })
 * pairing.subscribe(() => console.log(pairing.getSnapshot().status))
 * pairing.connect('K7QF2-M9DXA')
 * ```
 */
export function createMcpPairingObserver(
  tm: Toolmark,
  options: McpPairingObserverOptions = {},
): McpPairingObserver {
  let current = options
  let snapshot = IDLE
  // The running pairing: a status it reports after it was replaced or stopped is not ours.
  let running: { dispose: () => void } | undefined
  const changes = createSubscribable({
    label: 'MCP pairing',
    report: (event) => reportError(tm, event),
  })

  function move(status: McpPairingState, detail: McpPairingStatusDetail = {}): void {
    checkPairingMove(snapshot.status, status)
    const next: McpPairingSnapshot = { status }
    if (detail.reason !== undefined) next.reason = detail.reason
    if (detail.attempts !== undefined) next.attempts = detail.attempts
    if (detail.retryInMs !== undefined) next.retryInMs = detail.retryInMs
    if (same(next, snapshot)) return
    snapshot = Object.freeze(next)
    changes.notify()
  }

  function stop(): void {
    const own = running
    running = undefined
    own?.dispose()
    move('idle')
  }

  function connect(code?: string): void {
    const previous = running
    const own = { dispose: () => {} }
    running = own
    previous?.dispose()
    own.dispose = tm.use(
      mcpPairing({
        ...current,
        code,
        onStatus(status, detail) {
          if (running === own) move(status, detail)
        },
      }),
    )
  }

  return {
    subscribe: changes.subscribe,
    getSnapshot: () => snapshot,
    connect,
    resume() {
      const valid = parseMcpPort(current.port) !== undefined
      if (valid && !hasMcpSession(current.port, current.storage)) return false
      connect()
      return true
    },
    stop,
    disconnect() {
      stop()
      forgetMcpSession(current.port, current.storage)
    },
    setOptions(options) {
      current = options
    },
  }
}

const same = (a: McpPairingSnapshot, b: McpPairingSnapshot): boolean =>
  a.status === b.status &&
  a.reason === b.reason &&
  a.attempts === b.attempts &&
  a.retryInMs === b.retryInMs
