import type { Verified } from '../confirmations/confirmation'
import { verifierFlows } from '../base/verifierFlows'
import type { RegistryInternals } from '../tool/toolRecord'
import type { ConfirmationEntry } from '../types'

/**
 * Step-up verification of one approval, whoever approved (a dialog, a script, an agent): the
 * registry's verifier, with the verification it brings (`@toolmark/core/passkey`), is asked over
 * the exact input that will run. Declined, thrown or not matching → `failed`; the entry stays
 * pending.
 */
export function verifierFor(internals: RegistryInternals, entry: ConfirmationEntry) {
  return async (input: unknown, signal: AbortSignal): Promise<Verified> => {
    const { verification } = internals
    const { verifier } = verification
    const verify = verifier && verifierFlows.get(verifier)
    if (!verifier || !verify) return { failed: 'This page has no verifier to ask the person with' }
    try {
      return await verify(verifier, entry, input, signal, verification)
    } catch (cause) {
      internals.errorEvent({
        code: 'verifier_threw',
        message: 'The verifier failed',
        tool: entry.tool,
        callId: entry.callId,
        cause,
      })
      return { failed: 'The verification failed' }
    }
  }
}
