import { fromBase64url, toBase64url } from '../verification/base64url'
import { checkAssertion, readVerification } from '../verification/checkAssertion'
import { deepFreeze } from '../base/results'
import { approvalChallenge } from '../verification/approvalChallenge'
import { verifierFlows } from '../base/verifierFlows'
import { verifyApproval } from './verifyApproval'
import type { ExpectedAssertion, Verification, VerificationRequest, Verifier } from '../types'

/** A passkey the person enrolled (what `registerPasskey` returns as `credential`). */
export interface PasskeyCredential {
  /** The credential id, base64url. */
  id: string
  /** Its public key (SubjectPublicKeyInfo, base64url), when known: signatures are then checked. */
  publicKey?: string
  /** Its COSE algorithm: -7 (ES256) or -257 (RS256). */
  algorithm?: number
}

export interface PasskeyVerifierOptions {
  /**
   * The passkeys that may approve (a function is read at each approval, for passkeys enrolled
   * later). An empty list lets the browser offer any passkey of this relying party.
   */
  credentials: readonly PasskeyCredential[] | (() => readonly PasskeyCredential[])
  /** The relying party id (default: the page's host). */
  rpId?: string
  /** How long the browser's prompt may stay open in ms (default 120 000); the confirmation's end closes it sooner. */
  timeoutMs?: number
}

/** The browser's WebAuthn, read when asked (no `navigator` at module top level). */
const webauthn = (): CredentialsContainer | undefined =>
  (globalThis as { navigator?: { credentials?: CredentialsContainer } }).navigator?.credentials

/** A credential's standard JSON form, from `toJSON()` where the browser has it. */
export function credentialJson(credential: PublicKeyCredential): unknown {
  const withJson = credential as PublicKeyCredential & { toJSON?: () => unknown }
  if (typeof withJson.toJSON === 'function') return withJson.toJSON()
  const response = credential.response as AuthenticatorAssertionResponse
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      authenticatorData: toBase64url(response.authenticatorData),
      signature: toBase64url(response.signature),
      userHandle: response.userHandle ? toBase64url(response.userHandle) : null,
    },
    clientExtensionResults: credential.getClientExtensionResults(),
  }
}

const declined = (error: unknown) =>
  error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')

/** Core's check of what a verifier gave: a WebAuthn assertion signing this approval. */
async function checkGiven(
  given: unknown,
  expected: ExpectedAssertion,
): Promise<Verification | string> {
  const verification = readVerification(given)
  if (typeof verification === 'string') return verification
  return (await checkAssertion(verification, expected)) ?? deepFreeze(verification)
}

/**
 * A verifier from the app's own prompt: `ask` gets the approval's challenge and resolves with the
 * WebAuthn assertion in its JSON form (`PublicKeyCredential.toJSON()`), or `undefined` when the
 * person declines. Core checks every assertion it gives against the approval (type, challenge,
 * origin, relying party, user verification, and the signature when the key is known), whoever
 * approved.
 *
 * @example
 * const verifier = webauthnVerifier(async (request) => {
 *   const credential = await myPasskeyPrompt(request.challenge, request.signal)
 *   return credential?.toJSON()
 * })
 * const tm = createToolmark({ confirm: { verifier } })
 */
export function webauthnVerifier(
  ask: (request: VerificationRequest) => Promise<Verification | undefined>,
): Verifier {
  const verifier: Verifier = Object.freeze({ challenge: approvalChallenge, ask, check: checkGiven })
  verifierFlows.set(verifier, verifyApproval)
  return verifier
}

/**
 * A verifier that asks for the person's passkey: WebAuthn `navigator.credentials.get` with
 * `userVerification: 'required'` (fingerprint, face or PIN, not just a touch) and the approval's
 * challenge. The person declining (or the confirmation ending meanwhile) resolves `undefined`. A
 * passkey outside `credentials`, or one whose signature does not verify with its known public
 * key, is an error. Core then checks the assertion against the approval again.
 *
 * @example
 * const tm = createToolmark({ confirm: { verifier: passkeyVerifier({ credentials: () => saved }) } })
 */
export function passkeyVerifier(options: PasskeyVerifierOptions): Verifier {
  return webauthnVerifier(async (request) => {
    const container = webauthn()
    if (!container) throw new Error('WebAuthn is not available here (navigator.credentials)')
    const list =
      typeof options.credentials === 'function' ? options.credentials() : options.credentials
    const challenge = fromBase64url(request.challenge)
    if (!challenge) throw new Error('The approval challenge is not base64url')
    const publicKey: PublicKeyCredentialRequestOptions = {
      challenge,
      userVerification: 'required',
      // The confirmation's end (expiry, withdrawal) closes the prompt through `signal`.
      timeout: options.timeoutMs ?? 120_000,
      allowCredentials: list.map((c) => ({ type: 'public-key', id: fromBase64url(c.id)! })),
    }
    if (options.rpId !== undefined) publicKey.rpId = options.rpId
    let credential: Credential | null
    try {
      credential = await container.get({ publicKey, signal: request.signal })
    } catch (error) {
      if (declined(error)) return undefined
      throw error
    }
    if (!credential) return undefined
    const verification = readVerification(credentialJson(credential as PublicKeyCredential))
    if (typeof verification === 'string') throw new Error(verification)
    const known = list.find((c) => c.id === verification.id)
    if (list.length > 0 && !known) throw new Error('The passkey used is not one of this app’s')
    if (known?.publicKey !== undefined) {
      const origin = (globalThis as { location?: { origin?: string } }).location?.origin
      const problem = await checkAssertion(verification, {
        challenge: request.challenge,
        origin,
        rpId:
          options.rpId ?? (globalThis as { location?: { hostname?: string } }).location?.hostname,
        publicKey: { spki: known.publicKey, algorithm: known.algorithm ?? -7 },
      })
      if (problem) throw new Error(problem)
    }
    return verification
  })
}
