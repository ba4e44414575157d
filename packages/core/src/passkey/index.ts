/**
 * `@toolmark/core/passkey`: step-up verification of approvals with the person's passkey
 * (WebAuthn), framework-free and without dependencies. Give `createToolmark({ confirm: {
 * verifier: passkeyVerifier(…) } })`; tools with `verify: true` (or `policy[caller].verify`) then
 * run only after the person's authenticator signed that exact approval.
 */
export { passkeyVerifier, webauthnVerifier } from './passkeyVerifier'
export { registerPasskey } from './registerPasskey'
export { approvalChallenge } from '../verification/approvalChallenge'
export { checkAssertion } from '../verification/checkAssertion'
export type { PasskeyCredential, PasskeyVerifierOptions } from './passkeyVerifier'
export type { RegisteredPasskey, RegisterPasskeyOptions } from './registerPasskey'
export type {
  ChallengeParts,
  ExpectedAssertion,
  Verification,
  VerificationRequest,
  Verifier,
} from '../types'
