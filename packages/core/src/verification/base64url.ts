/** base64url (RFC 4648 §5, no padding), the encoding of every binary member of a WebAuthn JSON. */

const ALPHABET = /^[A-Za-z0-9_-]*$/

/** Bytes → base64url. */
export function toBase64url(bytes: ArrayBuffer | ArrayBufferView): string {
  const view =
    bytes instanceof ArrayBuffer
      ? new Uint8Array(bytes)
      : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let binary = ''
  for (let i = 0; i < view.length; i++) binary += String.fromCharCode(view[i])
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** base64url → bytes, or `undefined` when the text is not base64url. */
export function fromBase64url(text: unknown): Uint8Array<ArrayBuffer> | undefined {
  if (typeof text !== 'string' || !ALPHABET.test(text) || text.length % 4 === 1) return undefined
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}
