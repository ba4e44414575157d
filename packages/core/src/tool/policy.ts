import { CALLER_TRAITS, POLICY_CALLERS, perCaller } from './callers'
import { isObject, own } from '../base/guards'
import type { Problem } from '../base/problem'
import { isToolName } from './names'
import {
  CALLERS,
  type Caller,
  type CallerPolicy,
  type Policy,
  type ToolClass,
  type ToolHints,
} from '../types'

/** Tool classes, strongest first. */
export const CLASSES: readonly ToolClass[] = ['destructive', 'consequential', 'readOnly', 'none']

/** A tool's class: its strongest hint. */
export function toolClass(hints: ToolHints | undefined): ToolClass {
  if (hints?.destructive) return 'destructive'
  if (hints?.consequential) return 'consequential'
  if (hints?.readOnly) return 'readOnly'
  return 'none'
}

/**
 * Whether a call's approval needs step-up verification: the tool says so (`verify: true`) or the
 * caller's policy does for its class. Only for calls that need a confirmation at all.
 */
export function needsVerification(
  cls: ToolClass,
  verify: boolean | undefined,
  caller: Caller,
  policy: CompiledCallerPolicy,
): boolean {
  return needsConfirmation(cls, caller) && (verify === true || policy.verifies(cls))
}

/** Whether a call of this class needs a person's approval (never for `human`). */
export function needsConfirmation(cls: ToolClass, caller: Caller): boolean {
  return caller !== 'human' && (cls === 'destructive' || cls === 'consequential')
}

/** The rules for one caller, ready to answer per tool. */
export interface CompiledCallerPolicy {
  allows(name: string, cls: ToolClass): boolean
  /** Whether approvals of this class need step-up verification for this caller. */
  verifies(cls: ToolClass): boolean
  /** Whether a person may grant this caller later calls of this tool (`policy[caller].grants`). */
  grants(name: string): boolean
  rateLimit?: { calls: number; perMs: number }
}

const nameRule = (pattern: string) =>
  pattern.endsWith('.*')
    ? (name: string) => name.startsWith(pattern.slice(0, -1))
    : (name: string) => name === pattern

const isPattern = (p: unknown): boolean => {
  if (typeof p !== 'string') return false
  return p.endsWith('.*') ? isToolName(p.slice(0, -2)) : isToolName(p)
}

const isPatternList = (list: unknown): boolean => Array.isArray(list) && list.every(isPattern)

/** The keys a caller's policy entry may have. */
const POLICY_KEYS = ['allow', 'tools', 'rateLimit', 'verify', 'grants']

/** What is wrong with one caller's policy entry, or `undefined` when it is valid. */
export function policyProblem(caller: string, entry: unknown): Problem | undefined {
  if (!(POLICY_CALLERS as readonly string[]).includes(caller)) return ['unknown caller', caller]
  if (entry === undefined) return undefined
  if (!isObject(entry)) return ['policy entry', caller]
  for (const key of Object.keys(entry)) {
    if (!POLICY_KEYS.includes(key)) {
      return ['policy key', caller, key]
    }
  }
  const allow = own(entry, 'allow')
  const tools = own(entry, 'tools')
  const rateLimit = own(entry, 'rateLimit')
  const verify = own(entry, 'verify')
  const grants = own(entry, 'grants')
  if (grants !== undefined && typeof grants !== 'boolean' && !isPatternList(grants)) {
    return ['policy grants', caller]
  }
  if (
    verify !== undefined &&
    (!Array.isArray(verify) || !verify.every((c) => c === 'destructive' || c === 'consequential'))
  ) {
    return ['policy verify', caller]
  }
  if (
    allow !== undefined &&
    (!Array.isArray(allow) || !allow.every((c) => CLASSES.includes(c as ToolClass)))
  ) {
    return ['policy allow', caller]
  }
  if (tools !== undefined) {
    if (!isObject(tools)) return ['policy tools', caller]
    for (const key of Object.keys(tools)) {
      if (key !== 'allow' && key !== 'deny') return ['policy tools key', caller, key]
      const list = tools[key]
      if (!isPatternList(list)) return ['policy names', caller, key]
    }
  }
  if (rateLimit !== undefined) {
    const calls = isObject(rateLimit) ? own(rateLimit, 'calls') : undefined
    const perMs = isObject(rateLimit) ? own(rateLimit, 'perMs') : undefined
    if (
      !Number.isInteger(calls) ||
      (calls as number) < 1 ||
      typeof perMs !== 'number' ||
      !(perMs > 0) ||
      !Number.isFinite(perMs)
    ) {
      return ['policy rateLimit', caller]
    }
  }
  return undefined
}

const DENY_ALL: CompiledCallerPolicy = {
  allows: () => false,
  verifies: () => false,
  grants: () => false,
}

/** Compiles one caller's rules; `entry` must already be valid. */
export function compileCallerPolicy(
  caller: Caller,
  entry: CallerPolicy | undefined,
): CompiledCallerPolicy {
  // Own properties only: a polluted Object.prototype must not grant anything.
  const given = entry ?? {}
  const allowed = own(given, 'allow') as ToolClass[] | undefined
  const tools = (own(given, 'tools') ?? {}) as NonNullable<CallerPolicy['tools']>
  const rate = own(given, 'rateLimit') as CallerPolicy['rateLimit']
  const verified = new Set<ToolClass>((own(given, 'verify') as ToolClass[] | undefined) ?? [])
  const classes = new Set<ToolClass>(allowed ?? CALLER_TRAITS[caller].classes)
  const allow = (own(tools, 'allow') as string[] | undefined)?.map(nameRule)
  const deny = (own(tools, 'deny') as string[] | undefined)?.map(nameRule) ?? []
  const grantsGiven = own(given, 'grants') as CallerPolicy['grants']
  const grantRules = Array.isArray(grantsGiven) ? grantsGiven.map(nameRule) : undefined
  return {
    allows(name, cls) {
      // Loops, not `some` with a closure: this runs on every call.
      if (!classes.has(cls)) return false
      for (let i = 0; i < deny.length; i++) if (deny[i](name)) return false
      if (!allow) return true
      for (let i = 0; i < allow.length; i++) if (allow[i](name)) return true
      return false
    },
    verifies: (cls) => verified.has(cls),
    grants: (name) =>
      grantsGiven === false ? false : grantRules ? grantRules.some((rule) => rule(name)) : true,
    rateLimit: rate
      ? { calls: own(rate, 'calls') as number, perMs: own(rate, 'perMs') as number }
      : undefined,
  }
}

/** The compiled policy of every caller, with the problems found (each leaves its caller with no tools). */
export function compilePolicy(policy: Policy | undefined): {
  callers: Record<Caller, CompiledCallerPolicy>
  problems: Problem[]
} {
  const problems: Problem[] = []
  const given = (policy ?? {}) as Record<string, unknown>
  const broken = policy !== undefined && !isObject(policy)
  if (broken) problems.push(['policy'])
  const denied = new Set<string>()
  for (const key of broken ? [] : Object.keys(given)) {
    const problem = policyProblem(key, own(given, key))
    if (problem) {
      problems.push(problem)
      denied.add(key)
    }
  }
  const callers = perCaller((caller) =>
    !CALLER_TRAITS[caller].policy
      ? compileCallerPolicy(caller, undefined)
      : broken || denied.has(caller)
        ? DENY_ALL
        : compileCallerPolicy(caller, own(given, caller) as CallerPolicy | undefined),
  )
  return { callers, problems }
}

/**
 * The rules a tour's `do` step meets (DESIGN §11): the tour's own (`policy.tour`) and those of
 * the caller that started the tour, the stricter winning. A tool either denies is denied; either
 * asking for verification makes the step verify; a grant needs both to allow it. Rate limits are
 * not here: the rate limiter counts the step on the tour's window and on its starter's.
 */
export function bothPolicies(
  channel: CompiledCallerPolicy,
  starter: CompiledCallerPolicy,
): CompiledCallerPolicy {
  return {
    allows: (name, cls) => channel.allows(name, cls) && starter.allows(name, cls),
    verifies: (cls) => channel.verifies(cls) || starter.verifies(cls),
    grants: (name) => channel.grants(name) && starter.grants(name),
  }
}

/** Counts calls per caller in a sliding window, against the limits of the policy it was given. */
export interface RateLimiter {
  /**
   * Whether any caller has a limit: when none has, a call asks nothing more (`bench/call.mjs`:
   * looking up the caller's rules on every call cost about 0.1× the floor).
   */
  readonly active: boolean
  /** Counts a call of `caller`; false when it is over its limit (the call is not counted). */
  take(caller: Caller, at: number): boolean
  /** New limits (a new policy): every window starts again. */
  reset(callers: Record<Caller, CompiledCallerPolicy>): void
}

/** A sliding-window counter per caller, for the limits of `callers`. */
export function createRateLimiter(callers: Record<Caller, CompiledCallerPolicy>): RateLimiter {
  const windows = new Map<Caller, number[]>()
  let limits = callers
  const limiter = {
    active: false,
    take(caller: Caller, at: number): boolean {
      const limit = limits[caller].rateLimit
      if (!limit) return true
      const list = windows.get(caller) ?? []
      const since = at - limit.perMs
      while (list.length > 0 && list[0] <= since) list.shift()
      if (list.length >= limit.calls) {
        windows.set(caller, list)
        return false
      }
      list.push(at)
      windows.set(caller, list)
      return true
    },
    reset(next: Record<Caller, CompiledCallerPolicy>) {
      limits = next
      windows.clear()
      limiter.active = CALLERS.some((caller) => next[caller].rateLimit !== undefined)
    },
  }
  limiter.reset(callers)
  return limiter
}
