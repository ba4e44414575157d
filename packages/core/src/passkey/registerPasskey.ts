import { fromBase64url, toBase64url } from '../verification/base64url'
import type { PasskeyCredential } from './passkeyVerifier'

export interface RegisterPasskeyOptions {
  /** The relying party: `name` shown by the browser, `id` default the page's host. */
  rp: { name: string; id?: string }
  /** The person: a stable opaque `id` (not an email), a `name` and a `displayName`. */
  user: { id: string; name: string; displayName?: string }
  /** A challenge from the app's server (base64url), so it can verify the registration; default random. */
  challenge?: string
  /** How long the browser's prompt may stay open in ms (default 120 000). */
  timeoutMs?: number
  signal?: AbortSignal
}

export interface RegisteredPasskey {
  /** What `passkeyVerifier({ credentials })` needs: the id, public key and algorithm. */
  credential: PasskeyCredential
  /** The registration in its standard JSON form (`toJSON()`), for the app's server to verify and store. */
  registration: unknown
}

/**
 * Enrolls a passkey for approvals: WebAuthn `navigator.credentials.create` with user
 * verification required, ES256 or RS256 keys and no attestation. Resolves with the credential to
 * keep, or `undefined` when the person declined.
 *
 * @example
 * const passkey = await registerPasskey({ rp: { name: 'Helpdesk' }, user: { id: 'u1', name: 'ada' } })
 */
export async function registerPasskey(
  options: RegisterPasskeyOptions,
): Promise<RegisteredPasskey | undefined> {
  const container = (globalThis as { navigator?: { credentials?: CredentialsContainer } }).navigator
    ?.credentials
  if (!container) throw new Error('WebAuthn is not available here (navigator.credentials)')
  const challenge =
    options.challenge === undefined
      ? crypto.getRandomValues(new Uint8Array(32))
      : fromBase64url(options.challenge)
  if (!challenge) throw new Error('registerPasskey: challenge must be base64url')
  const rp: PublicKeyCredentialRpEntity = { name: options.rp.name }
  if (options.rp.id !== undefined) rp.id = options.rp.id
  let credential: Credential | null
  try {
    credential = await container.create({
      publicKey: {
        rp,
        user: {
          id: new TextEncoder().encode(options.user.id),
          name: options.user.name,
          displayName: options.user.displayName ?? options.user.name,
        },
        challenge,
        pubKeyCredParams: [
          { type: 'public-key', alg: -7 },
          { type: 'public-key', alg: -257 },
        ],
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
        attestation: 'none',
        timeout: options.timeoutMs ?? 120_000,
      },
      signal: options.signal,
    })
  } catch (error) {
    if (
      error instanceof Error &&
      (error.name === 'NotAllowedError' || error.name === 'AbortError')
    ) {
      return undefined
    }
    throw error
  }
  if (!credential) return undefined
  const pk = credential as PublicKeyCredential
  const response = pk.response as AuthenticatorAttestationResponse
  const spki = response.getPublicKey()
  const withJson = pk as PublicKeyCredential & { toJSON?: () => unknown }
  const passkey: PasskeyCredential = { id: pk.id, algorithm: response.getPublicKeyAlgorithm() }
  if (spki) passkey.publicKey = toBase64url(spki)
  return {
    credential: passkey,
    registration:
      typeof withJson.toJSON === 'function'
        ? withJson.toJSON()
        : { id: pk.id, rawId: toBase64url(pk.rawId), type: pk.type },
  }
}
