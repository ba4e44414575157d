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
): string | undefined {
  const tool = JSON.stringify(record.name)
  if (!needsConfirmation(record.cls, caller)) return `${tool} needs no confirmation to grant`
  if (record.cls === 'destructive') return `${tool} is destructive: each call asks`
  if (internals.verifies(record, caller)) return `${tool} needs a verified approval for each call`
  if (record.def.grant === false) return `${tool} does not allow grants: each call asks`
  if (!internals.policyOf(caller).grants(record.name)) {
    return `Policy does not let ${caller} be granted ${tool}: each call asks`
  }
  return undefined
}
