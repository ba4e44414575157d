const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** An unguessable id: 128 random bits from the platform's CSPRNG, as hex, with an optional prefix. */
export function randomId(prefix = ''): string {
  const bytes = new Uint8Array(16)
  globalThis.crypto.getRandomValues(bytes)
  let out = prefix
  for (const b of bytes) out += HEX[b]
  return out
}

/** A short, stable, non-cryptographic hash (FNV-1a, 32 bits) as 8 hex digits. */
export function shortHash(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return (h >>> 0).toString(16).padStart(8, '0')
}

/** Milliseconds from a monotonic clock where there is one. */
export const now = (): number =>
  typeof performance !== 'undefined' && typeof performance.now === 'function'
    ? performance.now()
    : Date.now()
