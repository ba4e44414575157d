import { deepFreeze } from '../base/results'
import type { VerifyApproval } from '../base/verifierFlows'
import type { VerificationRequest } from '../types'

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
 * Step-up verification of one approval: the verifier is asked over the exact input that will
 * run, and what it gives is checked against the approval's origin and relying party (the page's
 * own unless `confirm.origin` / `rpId` say otherwise). Declined or not matching → `failed`.
 */
export const verifyApproval: VerifyApproval = async (verifier, entry, input, signal, where) => {
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
  const origin = where.origin ?? pageOrigin()
  const checked = await verifier.check(given, {
    challenge,
    origin,
    rpId: where.rpId ?? hostOf(origin),
  })
  return typeof checked === 'string' ? { failed: checked } : { verification: deepFreeze(checked) }
}
