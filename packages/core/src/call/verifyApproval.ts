import type { Verified } from '../confirmations/confirmation'
import { deepFreeze } from '../base/results'
import type { RegistryInternals } from '../tool/toolRecord'
import type { ConfirmationEntry, VerificationRequest } from '../types'

/** The page's origin, where there is a page. */
const pageOrigin = (): string | undefined => {
  const origin = (globalThis as { location?: { origin?: unknown } }).location?.origin
  return typeof origin === 'string' && origin !== 'null' ? origin : undefined
}

const hostOf = (origin: string | undefined): string | undefined => {
  try {
    return origin === undefined ? undefined : new URL(origin).hostname
  } catch {
    return undefined
  }
}

/**
 * Step-up verification of one approval: the registry's verifier is asked over the exact input
 * that will run, and what it gives is checked here, whoever approved (a dialog, a script, an
 * agent). Declined, thrown or not matching → `failed`; the entry stays pending.
 */
export function verifierFor(internals: RegistryInternals, entry: ConfirmationEntry) {
  return async (input: unknown, signal: AbortSignal): Promise<Verified> => {
    const { verifier } = internals.verification
    if (!verifier) return { failed: 'This page has no verifier to ask the person with' }
    try {
      const challenge = await verifier.challenge({
        confirmId: entry.id,
        tool: entry.tool,
        input,
        expiresAt: entry.expiresAt,
      })
      const request: VerificationRequest = {
        confirmId: entry.id,
        tool: entry.tool,
        caller: entry.caller,
        summary: entry.summary,
        challenge,
        expiresAt: entry.expiresAt,
        signal,
      }
      if (entry.title !== undefined) request.title = entry.title
      const given = await verifier.ask(request)
      if (given === undefined || given === null) return { failed: 'The person did not verify' }
      const origin = internals.verification.origin ?? pageOrigin()
      const checked = await verifier.check(given, {
        challenge,
        origin,
        rpId: internals.verification.rpId ?? hostOf(origin),
      })
      return typeof checked === 'string'
        ? { failed: checked }
        : { verification: deepFreeze(checked) }
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
