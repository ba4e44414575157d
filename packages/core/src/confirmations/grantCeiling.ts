import { needsConfirmation } from '../tool/policy'
import type { RegistryInternals, ToolRecord } from '../tool/toolRecord'
import type { Caller } from '../types'

/**
 * The ceilings of grants (DESIGN §3.6): why a person may not grant this caller later calls of
 * this tool (destructive, verification, the tool's `grant: false`, `policy[caller].grants`), or
 * `undefined` when they may. Read again at every use, so a policy changed since wins. It comes
 * with the grant list (`grants()`): a registry without grants asks it nothing.
 */
export function grantCeiling(
  internals: Pick<RegistryInternals, 'verifies' | 'policyOf'>,
  record: ToolRecord,
  caller: Caller,
  /** A tour step's starter: its policy bounds the grant too. */
  actingFor?: Caller,
): string | undefined {
  const tool = JSON.stringify(record.name)
  if (!needsConfirmation(record.cls, caller)) return `${tool} needs no confirmation to grant`
  if (record.cls === 'destructive') return `${tool} is destructive: each call asks`
  if (internals.verifies(record, caller, actingFor))
    return `${tool} needs a verified approval for each call`
  if (record.def.grant === false) return `${tool} does not allow grants: each call asks`
  if (!internals.policyOf(caller, actingFor).grants(record.name)) {
    const who = actingFor === undefined ? caller : `a tour for ${actingFor}`
    return `Policy does not let ${who} be granted ${tool}: each call asks`
  }
  return undefined
}
