import { isObject } from '../base/guards'
import { fromBase64url } from './base64url'
import type { ExpectedAssertion, Verification } from '../types'

export type { ExpectedAssertion }

const FLAG_USER_PRESENT = 0x01
const FLAG_USER_VERIFIED = 0x04
/** COSE algorithm ids WebCrypto can check without dependencies. */
export const ES256 = -7
export const RS256 = -257

const sha256 = async (bytes: Uint8Array<ArrayBuffer>) =>
  new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))

const equalBytes = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((byte, i) => byte === b[i])

/** The assertion's JSON form, copied member by member (nothing else is kept), or why not. */
export function readVerification(value: unknown): Verification | string {
  if (!isObject(value) || value.type !== 'public-key') return 'Not a WebAuthn public-key credential'
  const { id, rawId, response } = value
  if (typeof id !== 'string' || typeof rawId !== 'string' || !isObject(response)) {
    return 'The assertion lacks its id or response'
  }
  const { clientDataJSON, authenticatorData, signature, userHandle } = response
  for (const part of [id, rawId, clientDataJSON, authenticatorData, signature]) {
    if (!fromBase64url(part)) return 'The assertion is not in base64url JSON form'
  }
  if (userHandle !== undefined && userHandle !== null && !fromBase64url(userHandle)) {
    return 'The assertion is not in base64url JSON form'
  }
  const verification: Verification = {
    id,
    rawId,
    type: 'public-key',
    response: {
      clientDataJSON: clientDataJSON as string,
      authenticatorData: authenticatorData as string,
      signature: signature as string,
    },
    clientExtensionResults: {},
  }
  if (typeof userHandle === 'string') verification.response.userHandle = userHandle
  if (typeof value.authenticatorAttachment === 'string') {
    verification.authenticatorAttachment = value.authenticatorAttachment
  }
  return verification
}

/**
 * Checks a WebAuthn assertion against one approval: `clientDataJSON` (type `webauthn.get`, this
 * challenge, this origin), the authenticator data (this relying party, user present and user
 * verified) and, when the public key is known, the signature (ES256 or RS256, WebCrypto).
 * Resolves with what is wrong, or `undefined` when it holds. A server checks again: this is the
 * page's safety, not authorization.
 */
export async function checkAssertion(
  verification: Verification,
  expected: ExpectedAssertion,
): Promise<string | undefined> {
  const clientBytes = fromBase64url(verification.response.clientDataJSON)!
  let clientData: unknown
  try {
    clientData = JSON.parse(new TextDecoder().decode(clientBytes))
  } catch {
    return 'clientDataJSON is not JSON'
  }
  if (!isObject(clientData) || clientData.type !== 'webauthn.get') {
    return 'The assertion is not a WebAuthn sign-in (webauthn.get)'
  }
  if (clientData.challenge !== expected.challenge) {
    return 'The assertion signs another challenge (another confirmation, input or expiry)'
  }
  if (expected.origin === undefined) return 'No origin to check the assertion against'
  if (clientData.origin !== expected.origin) return 'The assertion comes from another origin'
  const authData = fromBase64url(verification.response.authenticatorData)!
  if (authData.length < 37) return 'The authenticator data is too short'
  if (expected.rpId !== undefined) {
    const rpHash = await sha256(new TextEncoder().encode(expected.rpId))
    if (!equalBytes(authData.subarray(0, 32), rpHash)) {
      return 'The assertion is for another relying party'
    }
  }
  const flags = authData[32]
  if (!(flags & FLAG_USER_PRESENT)) return 'The authenticator saw no user present'
  if (!(flags & FLAG_USER_VERIFIED)) return 'The authenticator did not verify the user'
  if (expected.publicKey) {
    const valid = await verifySignature(verification, expected.publicKey, authData, clientBytes)
    if (!valid) return 'The signature does not verify with the credential’s public key'
  }
  return undefined
}

/** The signature over authenticatorData ‖ SHA-256(clientDataJSON), with WebCrypto. */
async function verifySignature(
  verification: Verification,
  publicKey: { spki: string; algorithm: number },
  authData: Uint8Array<ArrayBuffer>,
  clientBytes: Uint8Array<ArrayBuffer>,
): Promise<boolean> {
  const spki = fromBase64url(publicKey.spki)
  const signature = fromBase64url(verification.response.signature)
  if (!spki || !signature) return false
  const clientHash = await sha256(clientBytes)
  const signed = new Uint8Array(authData.length + clientHash.length)
  signed.set(authData)
  signed.set(clientHash, authData.length)
  try {
    if (publicKey.algorithm === ES256) {
      const raw = derToRaw(signature, 32)
      if (!raw) return false
      const key = await crypto.subtle.importKey(
        'spki',
        spki,
        { name: 'ECDSA', namedCurve: 'P-256' },
        false,
        ['verify'],
      )
      return await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, raw, signed)
    }
    if (publicKey.algorithm === RS256) {
      const key = await crypto.subtle.importKey(
        'spki',
        spki,
        { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
        false,
        ['verify'],
      )
      return await crypto.subtle.verify('RSASSA-PKCS1-v1_5', key, signature, signed)
    }
  } catch {
    return false
  }
  return false
}

/**
 * An ECDSA signature from DER (`SEQUENCE { INTEGER r, INTEGER s }`, what authenticators give) to
 * the fixed-width `r ‖ s` WebCrypto takes; `undefined` when it is not that shape.
 */
export function derToRaw(der: Uint8Array, size: number): Uint8Array<ArrayBuffer> | undefined {
  if (der[0] !== 0x30 || der.length < 8) return undefined
  let at = 2
  if (der[1] & 0x80) at = 2 + (der[1] & 0x7f)
  const out = new Uint8Array(size * 2)
  for (let part = 0; part < 2; part++) {
    if (der[at] !== 0x02) return undefined
    const length = der[at + 1]
    let value = der.subarray(at + 2, at + 2 + length)
    if (value.length !== length) return undefined
    while (value.length > size && value[0] === 0) value = value.subarray(1)
    if (value.length > size) return undefined
    out.set(value, part * size + (size - value.length))
    at += 2 + length
  }
  return out
}
