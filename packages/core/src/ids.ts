const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

// The CSPRNG is asked for a batch of bytes at a time (one call costs as much as a whole tool call);
// each byte is used once, so ids stay as unguessable as with one call per id.
const POOL_BYTES = 4096
let pool = new Uint8Array(0)
let offset = 0

/** An unguessable id: 128 random bits from the platform's CSPRNG, as hex, with an optional prefix. */
export function randomId(prefix = ''): string {
  if (offset + 16 > pool.length) {
    pool = new Uint8Array(POOL_BYTES)
    globalThis.crypto.getRandomValues(pool)
    offset = 0
  }
  let out = prefix
  for (let i = offset; i < offset + 16; i++) out += HEX[pool[i]]
  // Spent bytes are wiped, so nothing left in memory reveals an id already handed out.
  pool.fill(0, offset, offset + 16)
  offset += 16
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
