import { randomBytes } from 'node:crypto'
import {
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
  type WebAuthnCredential,
} from '@simplewebauthn/server'
import { approvalChallenge } from './approvalChallenge.ts'

/** How long a registration challenge stays valid. */
const CHALLENGE_MS = 5 * 60_000

/** What the page sends with a delete that a person approved with their passkey. */
export interface VerifiedApproval {
  assertion: AuthenticationResponseJSON
  confirmId: string
  expiresAt: number
}

/**
 * The helpdesk's passkeys, in memory (the showcase has no accounts): registration with a
 * challenge it issued, and the check of a passkey-approved action — the assertion verified by
 * `@simplewebauthn/server` against the challenge recomputed from what is about to happen, the
 * confirmation used once, the expiry passed never.
 */
export function createPasskeys() {
  const credentials = new Map<string, WebAuthnCredential>()
  const challenges = new Map<string, number>()
  /** Confirmation ids already used to authorize something, until their expiry. */
  const used = new Map<string, number>()

  const sweep = (now: number) => {
    for (const [c, until] of challenges) if (until <= now) challenges.delete(c)
    for (const [c, until] of used) if (until <= now) used.delete(c)
  }

  return {
    get enrolled(): boolean {
      return credentials.size > 0
    },
    /** A one-time challenge for `registerPasskey({ challenge })`. */
    registrationChallenge(): string {
      sweep(Date.now())
      const challenge = randomBytes(32).toString('base64url')
      challenges.set(challenge, Date.now() + CHALLENGE_MS)
      return challenge
    },
    /** Verifies and keeps a registration; returns an error message when it does not hold. */
    async register(
      registration: RegistrationResponseJSON,
      expected: { origin: string; rpId: string },
    ): Promise<string | undefined> {
      sweep(Date.now())
      const result = await verifyRegistrationResponse({
        response: registration,
        expectedChallenge: (challenge) => challenges.delete(challenge),
        expectedOrigin: expected.origin,
        expectedRPID: expected.rpId,
        requireUserVerification: true,
      }).catch((error: unknown) => ({ verified: false as const, error }))
      if (!result.verified || !('registrationInfo' in result) || !result.registrationInfo) {
        return 'The passkey registration does not verify'
      }
      const { credential } = result.registrationInfo
      credentials.set(credential.id, credential)
      return undefined
    },
    /**
     * Whether `approval` authorizes running `tool` with `input` now: a known passkey, user
     * verified, signing exactly this confirmation, tool, input and expiry, from this origin, not
     * expired, and not used before. Returns the reason when it does not.
     */
    async authorize(
      approval: VerifiedApproval,
      action: { tool: string; input: unknown },
      expected: { origin: string; rpId: string },
    ): Promise<string | undefined> {
      const now = Date.now()
      sweep(now)
      if (!(approval.expiresAt > now)) return 'The approval expired'
      if (used.has(approval.confirmId)) return 'The approval was used already'
      const credential = credentials.get(approval.assertion?.id)
      if (!credential) return 'The passkey is not one of this app’s'
      const expectedChallenge = approvalChallenge({
        confirmId: approval.confirmId,
        tool: action.tool,
        input: action.input,
        expiresAt: approval.expiresAt,
      })
      const result = await verifyAuthenticationResponse({
        response: approval.assertion,
        expectedChallenge,
        expectedOrigin: expected.origin,
        expectedRPID: expected.rpId,
        credential,
        requireUserVerification: true,
      }).catch(() => ({ verified: false as const }))
      if (!result.verified) return 'The passkey approval does not verify for this action'
      used.set(approval.confirmId, approval.expiresAt)
      if ('authenticationInfo' in result) {
        credentials.set(credential.id, {
          ...credential,
          counter: result.authenticationInfo.newCounter,
        })
      }
      return undefined
    },
  }
}
