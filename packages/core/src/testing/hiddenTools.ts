import { CALLER_TRAITS, INLINE_CALLERS } from '../tool/callers'
import { needsConfirmation, toolClass } from '../tool/policy'
import { CALLERS, type Caller, type ManifestEntry, type Toolmark } from '../types'

const seesDestructive = (caller: Caller) => CALLER_TRAITS[caller].classes.includes('destructive')
/** Callers that see destructive tools under the default policy, in words. */
const SEE_DESTRUCTIVE = CALLERS.filter(seesDestructive)
  .join(', ')
  .replace(/, ([^,]*)$/, ' and $1')

/** Agent callers that do not see destructive tools under the default policy. */
const NO_DESTRUCTIVE_BY_DEFAULT: readonly Caller[] = CALLERS.filter((c) => !seesDestructive(c))

/**
 * Why a registered tool (one `human` sees) is not shown to `caller`, told from what the registry
 * says publicly: its class, whether a presenter is attached and whether its approvals verify.
 * The policy itself is not readable, so a reason the policy could also explain says so.
 */
export function whyHidden(tm: Toolmark, entry: ManifestEntry, caller: Caller): string {
  const cls = toolClass(entry.hints)
  if (cls === 'destructive' && NO_DESTRUCTIVE_BY_DEFAULT.includes(caller)) {
    return `destructive: the default policy shows destructive tools to ${SEE_DESTRUCTIVE} only (policy: { ${caller}: { allow: ['destructive', 'consequential', 'readOnly', 'none'] } } changes that)`
  }
  if (needsConfirmation(cls, caller) && !tm.confirmations.hasPresenter()) {
    if (INLINE_CALLERS.includes(caller)) {
      return `${cls}: it asks a person, ${caller} is asked inline (while its call waits) and no presenter is attached — mount <ConfirmDialog> or call tm.confirmations.attachPresenter()`
    }
    return `${cls}: it asks a person and no presenter is attached, which hides it when ${caller}'s confirmations are inline (confirm: { ${caller}: 'inline' }); otherwise the policy for ${caller} leaves it out`
  }
  if (tm.verifies(entry.name, { caller })) {
    return `${cls}: its approvals need the person's verification, so it is hidden while the registry has no verifier (confirm: { verifier }); otherwise the policy for ${caller} leaves it out`
  }
  return `${cls}: the policy for ${caller} leaves it out (policy.${caller}.allow or policy.${caller}.tools)`
}

/**
 * Why a registry does not show `caller` the tool `wanted`, for a matcher's failure: the tools the
 * caller sees (or that it sees none), each registered tool hidden from it with the reason, and,
 * when it sees nothing, the callers that do see tools.
 */
export function missingToolReport(tm: Toolmark, caller: Caller, wanted: string): string {
  const all = tm.manifest({ caller: 'human' }).tools
  if (all.length === 0) {
    return 'the registry has no tools at all (none registered yet, or every one is in a scope with when: false)'
  }
  const shown = tm.manifest({ caller }).tools.map((t) => t.name)
  const hidden = all.filter((t) => !shown.includes(t.name))
  // The tool asked for first: its reason is the one the reader needs.
  hidden.sort((a, b) => Number(b.name === wanted) - Number(a.name === wanted))
  const parts = [
    shown.length === 0
      ? `the registry exposes no tools to ${caller}`
      : `the tools are ${JSON.stringify(shown)}`,
  ]
  if (hidden.length > 0) {
    const reasons = hidden.map((t) => `"${t.name}" (${whyHidden(tm, t, caller)})`)
    parts.push(`hidden from ${caller}: ${reasons.join('; ')}`)
  }
  if (shown.length === 0) {
    const seeing = CALLERS.filter((c) => c !== caller)
      .map((c) => [c, tm.manifest({ caller: c }).tools.length] as const)
      .filter(([, count]) => count > 0)
      .map(([c, count]) => `${c} (${count})`)
    parts.push(`callers that see tools: ${seeing.join(', ')}`)
  }
  return parts.join('; ')
}
