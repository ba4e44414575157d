/**
 * The handshake's cryptography, on WebCrypto (`crypto.subtle`) so the page and the server run
 * the same code: browsers have it in secure contexts (https, localhost), Node 20 as a global.
 */
import { CODE_KDF_ITERATIONS, CODE_SALT_PREFIX, SESSION_ID_TEXT, normalizeCode } from './handshake'

const encoder = new TextEncoder()
const HMAC = { name: 'HMAC', hash: 'SHA-256' } as const

function subtle(): SubtleCrypto {
  const value = (globalThis as { crypto?: Crypto }).crypto?.subtle
  if (!value) throw new Error('WebCrypto (crypto.subtle) is not available')
  return value
}

/** Whether this realm can run the handshake (a secure context with WebCrypto). */
export function hasWebCrypto(): boolean {
  const crypto = (globalThis as { crypto?: Crypto }).crypto
  return typeof crypto?.subtle?.sign === 'function' && typeof crypto.getRandomValues === 'function'
}

/** Encodes bytes as base64url without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** `bytes` random bytes from the platform's CSPRNG, as base64url. */
export function randomBase64Url(bytes: number): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)))
}

/**
 * The HMAC key of a one-time code: PBKDF2-SHA-256 over the normalized code, salted by the
 * server, so each guess costs whoever makes it `CODE_KDF_ITERATIONS` hash rounds.
 */
export async function codeKey(code: string, salt: string): Promise<CryptoKey> {
  const material = await subtle().importKey(
    'raw',
    encoder.encode(normalizeCode(code)),
    'PBKDF2',
    false,
    ['deriveBits'],
  )
  const bits = await subtle().deriveBits(
    {
      name: 'PBKDF2',
      hash: 'SHA-256',
      salt: encoder.encode(CODE_SALT_PREFIX + salt),
      iterations: CODE_KDF_ITERATIONS,
    },
    material,
    256,
  )
  return subtle().importKey('raw', bits, HMAC, false, ['sign', 'verify'])
}

/** The HMAC key of a session token (256 random bits; used as it is). */
export function tokenKey(token: string): Promise<CryptoKey> {
  return subtle().importKey('raw', encoder.encode(token), HMAC, false, ['sign', 'verify'])
}

/** HMAC-SHA-256 of `text` under `key`, as base64url (43 characters). */
export async function mac(key: CryptoKey, text: string): Promise<string> {
  return toBase64Url(new Uint8Array(await subtle().sign('HMAC', key, encoder.encode(text))))
}

/** Whether `proof` is the MAC of `text` under `key` (WebCrypto compares in constant time). */
export async function macMatches(key: CryptoKey, text: string, proof: string): Promise<boolean> {
  const bytes = fromBase64Url(proof)
  if (!bytes) return false
  return subtle().verify('HMAC', key, bytes, encoder.encode(text))
}

/** A public name for a session token: the first 16 bytes of a MAC keyed by it. */
export async function sessionId(key: CryptoKey): Promise<string> {
  const full = new Uint8Array(await subtle().sign('HMAC', key, encoder.encode(SESSION_ID_TEXT)))
  return toBase64Url(full.subarray(0, 16))
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
    const bytes = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
    return bytes
  } catch {
    return undefined
  }
}
