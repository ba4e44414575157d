import { REDACTED } from './redact'

/**
 * Field names that usually hold a secret: passwords, tokens, keys, card data, identity numbers.
 * Matched against one name segment, case-insensitively (`newPassword`, `api_key`, `cardNumber`).
 */
const SECRET_FIELD =
  /pass(word|code|phrase)|secret|token|api[-_]?key|private[-_]?key|credential|card|\bcc_?|cvc|cvv|\bpin\b|ssn|otp|one[-_]?time/i

/**
 * Header and cookie names that carry a credential, with `-` or `_` (`Authorization`,
 * `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `X-Session-Id`, `PHPSESSID`, `X-Auth`), so a
 * recorded request's headers do not go out in clear. Whole words only: `author` and
 * `cookieConsent` are no secrets.
 */
const SECRET_HEADER =
  /(^|[-_])(authori[sz]ation|(set[-_])?cookies?|auth|session|jwt)($|[-_])|session[-_]?(id|key)|(^|[-_]|php)sessid/i

/**
 * Whether a field name looks like it holds a secret (`password`, `token`, `cardNumber`…), or is a
 * header or cookie that carries one (`Authorization`, `Cookie`, `X-Api-Key`, `sessionId`…).
 */
export function looksSensitive(name: string): boolean {
  return SECRET_FIELD.test(name) || SECRET_HEADER.test(name)
}

/**
 * A copy of a plain JSON-like value with every property whose name looks sensitive masked. For
 * telemetry, where a tool's own sensitive paths are unknown: the input is already redacted with
 * them, the result is not. Depth-bounded; cycles are cut.
 */
export function maskSensitiveNames(value: unknown, depth = 0, seen = new Set<object>()): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (depth > 32 || seen.has(value)) return '[…]'
  seen.add(value)
  try {
    if (Array.isArray(value)) return value.map((v) => maskSensitiveNames(v, depth + 1, seen))
    // No prototype: a `__proto__` key of parsed JSON stays a plain property of the copy.
    const out: Record<string, unknown> = Object.create(null)
    for (const [key, v] of Object.entries(value)) {
      out[key] =
        looksSensitive(key) && v !== undefined && v !== null
          ? REDACTED
          : maskSensitiveNames(v, depth + 1, seen)
    }
    return out
  } finally {
    seen.delete(value)
  }
}
