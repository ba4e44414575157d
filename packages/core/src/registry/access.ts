import { confirmModesOf, perCaller } from '../tool/callers'
import {
  bothPolicies,
  compilePolicy,
  createRateLimiter,
  needsConfirmation,
  needsVerification,
  type CompiledCallerPolicy,
  type RateLimiter,
} from '../tool/policy'
import type { Access, ToolRecord } from '../tool/toolRecord'
import { isCaller, isObject } from '../base/guards'
import type { Caller, ConfirmMode, ErrorEvent, Policy, Toolmark, VerifyOptions } from '../types'
import type { Misconfigured } from './misconfiguration'
import { visible } from './scopeTree'

/** What access answers depend on, read when asked: each may change with a revision. */
export interface AccessParts {
  /** The `policy` option, compiled at creation. */
  readonly policy: Policy | undefined
  /** The `confirm` option's modes, read at creation. */
  readonly confirm: Partial<Record<Caller, ConfirmMode>>
  readonly verification: Readonly<VerifyOptions>
  hasPresenter(): boolean
  readonly misconfigured: Misconfigured
  /** Where problems of the policy given at creation go (reported once listeners can attach). */
  readonly atStartup: (event: ErrorEvent) => void
  readonly tools: ReadonlyMap<string, ToolRecord>
  /** Something changed: a new revision. */
  changed(): void
}

/** Whether a caller may use a tool, the caller's rules, and whether its approvals verify. */
export interface RegistryAccess {
  access(record: ToolRecord, caller: Caller, actingFor?: Caller): Access
  policyOf(caller: Caller, actingFor?: Caller): CompiledCallerPolicy
  verifies(record: ToolRecord, caller: Caller, actingFor?: Caller): boolean
  readonly rateLimiter: RateLimiter
  /** How a caller's confirmations are filed: `deferred` or `inline`. */
  confirmMode(caller: Caller): ConfirmMode
  /** `tm.verifies`: whether a caller's approvals of a registered tool need verification. */
  toolVerifies: Toolmark['verifies']
  /** A change happened (registration, scope, policy, presenter): every cached answer is stale. */
  stale(): void
  /** `tm.setPolicy`: compiles and applies a new policy; rate limits start over. */
  setPolicy(next: Policy | undefined): void
}

/** A registry's access answers, over the policy it owns. */
export function createAccess(parts: AccessParts): RegistryAccess {
  const { verification, misconfigured } = parts
  const confirmModes = confirmModesOf(parts.confirm)

  function applyPolicy(
    given: Policy | undefined,
    report?: (event: ErrorEvent) => void,
  ): Record<Caller, CompiledCallerPolicy> {
    const { callers, problems } = compilePolicy(given)
    // That caller gets no tools (every agent caller, when the policy is not an object).
    for (const problem of problems) misconfigured('invalid_policy', problem, '', report)
    return callers
  }
  let policy = applyPolicy(parts.policy, parts.atStartup)
  /** Bumped by every change (several may share one revision): what the cached answers hold for. */
  let generation = 0

  // Access only changes with a change (registration, scope, policy, presenter), so each tool keeps
  // its answers per caller until the next one: a call does not walk its scope chain every time.
  // A tour's step is answered afresh: it also depends on whom the tour acts for.
  function access(record: ToolRecord, caller: Caller, actingFor?: Caller): Access {
    if (caller === 'tour') return accessNow(record, caller, actingFor ?? 'inapp')
    if (record.accessGeneration !== generation) {
      record.accessGeneration = generation
      // One own key per caller, each present: a read never falls through to Object.prototype.
      record.access = perCaller(() => undefined)
    }
    return (record.access![caller] ??= accessNow(record, caller, undefined))
  }

  function accessNow(record: ToolRecord, caller: Caller, actingFor: Caller | undefined): Access {
    if (record.disposed || !visible(record.scope)) return 'hidden'
    if (!policyOf(caller, actingFor).allows(record.name, record.cls)) return 'denied'
    // An approval that needs the person's passkey, and nothing to ask it with: fail closed.
    if (!verification.verifier && verifies(record, caller, actingFor)) return 'no_verifier'
    if (
      needsConfirmation(record.cls, caller) &&
      confirmModes[caller] === 'inline' &&
      !parts.hasPresenter()
    ) {
      return 'no_presenter'
    }
    return 'ok'
  }

  /** A caller's rules; a tour's step meets the tour's and its starter's both (DESIGN §11). */
  const policyOf = (caller: Caller, actingFor?: Caller): CompiledCallerPolicy =>
    caller === 'tour' ? bothPolicies(policy.tour, policy[actingFor ?? 'inapp']) : policy[caller]

  const verifies = (record: ToolRecord, caller: Caller, actingFor?: Caller) =>
    needsVerification(record.cls, record.def.verify, caller, policyOf(caller, actingFor))

  const rateLimiter = createRateLimiter(policy)

  function toolVerifies(name: unknown, verifyOptions?: unknown): boolean {
    const record = typeof name === 'string' ? parts.tools.get(name) : undefined
    const caller = isObject(verifyOptions) ? verifyOptions.caller : undefined
    return record !== undefined && verifies(record, isCaller(caller) ? caller : 'inapp')
  }

  function setPolicy(next: Policy | undefined) {
    policy = applyPolicy(next)
    rateLimiter.reset(policy)
    parts.changed()
  }

  const confirmMode = (caller: Caller) => confirmModes[caller]

  const stale = () => {
    generation++
  }

  return { access, policyOf, verifies, rateLimiter, confirmMode, toolVerifies, stale, setPolicy }
}
