import { CALLERS, type Caller, type ConfirmMode, type ToolClass } from '../types'

/** What the registry knows of one caller before any policy is given. */
export interface CallerTraits {
  /** The classes of tools it sees by default (`policy[caller].allow` replaces them). */
  readonly classes: readonly ToolClass[]
  /**
   * How its confirmations are asked: `inline` always (while its call waits, in the page), or
   * `configurable` (`confirm: { [caller]: 'inline' | 'deferred' }`, deferred by default).
   */
  readonly confirm: 'inline' | 'configurable'
  /** Whether a policy may name it (`human` is fixed). */
  readonly policy: boolean
}

const ALL: readonly ToolClass[] = Object.freeze([
  'destructive',
  'consequential',
  'readOnly',
  'none',
])
const NOT_DESTRUCTIVE: readonly ToolClass[] = Object.freeze(['consequential', 'readOnly', 'none'])

/**
 * Every caller's traits, in one table typed by the caller list: adding a caller to `CALLERS`
 * fails the type check here until it has its row, and every other per-caller table derives from
 * this one or from `perCaller`.
 */
export const CALLER_TRAITS: Readonly<Record<Caller, CallerTraits>> = Object.freeze({
  inapp: { classes: ALL, confirm: 'configurable', policy: true },
  webmcp: { classes: NOT_DESTRUCTIVE, confirm: 'inline', policy: true },
  mcp: { classes: NOT_DESTRUCTIVE, confirm: 'inline', policy: true },
  test: { classes: ALL, confirm: 'configurable', policy: true },
  human: { classes: ALL, confirm: 'inline', policy: false },
  // A tour's `do` step waits for the person on top of the tour; what it may do is also bounded
  // by the policy of the caller that started the tour (`actingFor`).
  tour: { classes: ALL, confirm: 'inline', policy: true },
})

/** Callers a policy may name, in `CALLERS` order (`human` is fixed). */
export const POLICY_CALLERS: readonly Caller[] = Object.freeze(
  CALLERS.filter((caller) => CALLER_TRAITS[caller].policy),
)

/** Callers whose confirmations are always asked inline. */
export const INLINE_CALLERS: readonly Caller[] = Object.freeze(
  CALLERS.filter((caller) => CALLER_TRAITS[caller].confirm === 'inline'),
)

/** A caller a tour may act for: one a policy names, never `tour` itself (nor `human`). */
export const actsForTour = (value: unknown): value is Exclude<Caller, 'human' | 'tour'> =>
  (CALLERS as readonly unknown[]).includes(value) &&
  value !== 'tour' &&
  CALLER_TRAITS[value as Caller].policy

/**
 * A table with one own entry per caller, so a read of any caller never falls through to a
 * polluted `Object.prototype`. A plain object, not a prototype-free one: V8 keeps a null-prototype
 * object in dictionary mode, and the access cache is read on every call (`bench/call-gate.mjs`).
 */
export function perCaller<T>(value: (caller: Caller) => T): Record<Caller, T> {
  const table = {} as Record<Caller, T>
  for (const caller of CALLERS) table[caller] = value(caller)
  return table
}

/** The default confirmation modes, with the configurable callers' given modes. */
export function confirmModesOf(
  given: Partial<Record<Caller, ConfirmMode>>,
): Record<Caller, ConfirmMode> {
  return perCaller((caller) =>
    CALLER_TRAITS[caller].confirm === 'inline' ? 'inline' : (given[caller] ?? 'deferred'),
  )
}
