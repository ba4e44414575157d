import type { ConfirmationEntry, Verification, Verifier, VerifyOptions } from '../types'

/**
 * How one approval is verified with a verifier: its challenge for the exact input that will run,
 * the person asked with it, and what they gave checked against it. Throws only when the verifier
 * does (core reports `verifier_threw`).
 */
export type VerifyApproval = (
  verifier: Verifier,
  entry: ConfirmationEntry,
  input: unknown,
  signal: AbortSignal,
  where: Readonly<VerifyOptions>,
) => Promise<{ verification: Verification } | { failed: string }>

/**
 * The verification each verifier brings, keyed by the verifier: `webauthnVerifier` (and so
 * `passkeyVerifier`) of `@toolmark/core/passkey` adds its own, so a registry that never verifies
 * bundles none of it, and only a verifier made there is one.
 */
export const verifierFlows = new WeakMap<object, VerifyApproval>()
