import { REDACTED } from './redact'

/**
 * Field names that usually hold a secret: passwords, tokens, keys, card data, identity numbers.
 * Matched against one name segment, case-insensitively (`newPassword`, `api_key`, `cardNumber`).
 */
const SENSITIVE_NAME =
  /pass(word|code|phrase)|secret|token|api_?key|private_?key|credential|card|\bcc_?|cvc|cvv|\bpin\b|ssn|otp|one_?time/i

/** Whether a field name looks like it holds a secret (`password`, `token`, `cardNumber`…). */
export function looksSensitive(name: string): boolean {
  return SENSITIVE_NAME.test(name)
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
