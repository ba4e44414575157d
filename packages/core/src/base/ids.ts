/** Character codes of the hex digits. */
const DIGITS = Array.from('0123456789abcdef', (c) => c.charCodeAt(0))

// The CSPRNG is asked for a batch of bytes at a time (one call costs as much as a whole tool call;
// `bench/call.mjs` puts an id read on its own at 3.8 µs);
// each byte is used once, so ids stay as unguessable as with one call per id. The pool is made on
// first use and refilled in place once every byte is spent (and wiped).
const POOL_BYTES = 16_384
let pool: Uint8Array<ArrayBuffer> | undefined
let offset = POOL_BYTES

const hi = (byte: number) => DIGITS[byte >> 4]
const lo = (byte: number) => DIGITS[byte & 15]

/** An unguessable id: 128 random bits from the platform's CSPRNG, as hex, with an optional prefix. */
export function randomId(prefix = ''): string {
  if (offset + 16 > POOL_BYTES || pool === undefined) {
    pool ??= new Uint8Array(POOL_BYTES)
    globalThis.crypto.getRandomValues(pool)
    offset = 0
  }
  const p = pool
  const o = offset
  // One flat string in one step: adding two hex digits at a time builds a chain of 16 string
  // pieces, which costs far more the first time the id is used as a map key.
  // prettier-ignore
  const hex = String.fromCharCode(
    hi(p[o]), lo(p[o]), hi(p[o + 1]), lo(p[o + 1]), hi(p[o + 2]), lo(p[o + 2]),
    hi(p[o + 3]), lo(p[o + 3]), hi(p[o + 4]), lo(p[o + 4]), hi(p[o + 5]), lo(p[o + 5]),
    hi(p[o + 6]), lo(p[o + 6]), hi(p[o + 7]), lo(p[o + 7]), hi(p[o + 8]), lo(p[o + 8]),
    hi(p[o + 9]), lo(p[o + 9]), hi(p[o + 10]), lo(p[o + 10]), hi(p[o + 11]), lo(p[o + 11]),
    hi(p[o + 12]), lo(p[o + 12]), hi(p[o + 13]), lo(p[o + 13]), hi(p[o + 14]), lo(p[o + 14]),
    hi(p[o + 15]), lo(p[o + 15]),
  )
  // Spent bytes are wiped, so nothing left in memory reveals an id already handed out.
  p.fill(0, o, o + 16)
  offset = o + 16
  return prefix + hex
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
export const now = (): number => {
  // Read once per call (fake timers may swap it), and only once: in Node it is a lazy getter.
  const clock = (globalThis as { performance?: { now?: () => number } }).performance
  return clock !== undefined && typeof clock.now === 'function' ? clock.now() : Date.now()
}
