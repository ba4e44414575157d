import { toBase64url } from './base64url'
import { canonicalJson } from '../base/canonicalJson'
import type { ChallengeParts } from '../types'

const VERSION = 'toolmark.approval.v1'

/**
 * The WebAuthn challenge of one approval: base64url SHA-256 over the canonical JSON of
 * `["toolmark.approval.v1", confirmId, tool, input, expiresAt]`. A signature over it approves
 * exactly that input of that tool for that confirmation, until that time; a server recomputes it
 * from what it is asked to do before it trusts the assertion.
 *
 * @example
 * const expectedChallenge = await approvalChallenge({ confirmId, tool: 'tickets.delete', input: { id }, expiresAt })
 */
export async function approvalChallenge(parts: ChallengeParts): Promise<string> {
  const text = canonicalJson([VERSION, parts.confirmId, parts.tool, parts.input, parts.expiresAt])
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return toBase64url(digest)
}
