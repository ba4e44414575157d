import type { ErrorEvent, Toolmark } from '../types'

// A registered symbol, so a registry made by one copy of core (a duplicated install) is still
// reachable from another copy's reportError.
const REPORTER: unique symbol = Symbol.for('toolmark.reportError') as never

interface Reporting {
  readonly [REPORTER]?: (event: ErrorEvent) => void
}

/**
 * Gives a registry its reporter, as a read-only, non-enumerable property keyed by a symbol: the
 * route goes with the registry object itself (no module state) and stays out of its public
 * shape. Called once, by `createToolmark`.
 */
export function attachReporter(tm: Toolmark, report: (event: ErrorEvent) => void): void {
  Object.defineProperty(tm, REPORTER, { value: report })
}

/**
 * Emits an `error` event on a registry. For parts built on top of the registry (bridge, WebMCP,
 * form tools, pairing, the React kit) that must report a problem without throwing. An object
 * that was not made by `createToolmark` has no reporter: the event goes nowhere.
 */
export function reportError(tm: Toolmark, event: ErrorEvent): void {
  ;(tm as Reporting)[REPORTER]?.(event)
}
