/**
 * Cheap, bounded checks that run before any parsing or validation work, so a hostile message
 * costs at most one linear pass over its first `maxBytes` bytes.
 */

import { isPlainObject } from '../base/guards'

/** Limits applied to one inbound message. */
export interface MessageLimits {
  /** Largest message, in UTF-8 bytes of its JSON text. */
  maxBytes: number
  /** Deepest nesting of objects and arrays; the message object itself is depth 1. */
  maxDepth: number
}

/** Default limits per direction: pages accept little (1 MiB, depth 64), agents accept results. */
export const DEFAULT_MESSAGE_LIMITS: Readonly<{
  toPage: Readonly<MessageLimits>
  toAgent: Readonly<MessageLimits>
}> = Object.freeze({
  toPage: Object.freeze({ maxBytes: 1_048_576, maxDepth: 64 }),
  toAgent: Object.freeze({ maxBytes: 16_777_216, maxDepth: 128 }),
})

/**
 * UTF-8 byte length of `text`, counting no further than `stopAfter` (returns a value above it as
 * soon as the count passes it). Lone surrogates count as 3 bytes, like `TextEncoder` output.
 */
export function utf8Length(text: string, stopAfter = Infinity): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4
        i++
      } else bytes += 3
    } else bytes += 3
    if (bytes > stopAfter) return bytes
  }
  return bytes
}

/**
 * Checks the size and bracket depth of JSON text in one pass, before `JSON.parse` sees it.
 * Returns why the text is out of bounds, or `undefined` when it is within them.
 */
export function checkJsonText(text: string, limits: MessageLimits): string | undefined {
  // Every UTF-16 unit is at least one byte: a long string fails before any scanning.
  if (text.length > limits.maxBytes) return 'message too large'
  if (utf8Length(text, limits.maxBytes) > limits.maxBytes) return 'message too large'
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (inString) {
      if (ch === 0x5c /* \ */) i++
      else if (ch === 0x22 /* " */) inString = false
    } else if (ch === 0x22) inString = true
    else if (ch === 0x7b /* { */ || ch === 0x5b /* [ */) {
      if (++depth > limits.maxDepth) return 'message too deep'
    } else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) depth--
  }
  return undefined
}

/**
 * Walks a value that did not arrive as text (a custom transport, `postMessage` clones) and checks
 * that it is plain JSON data within the limits: plain objects and dense arrays, strings, finite
 * numbers, booleans and `null`. Cycles fail on depth. The byte count is the size of its JSON text
 * without escapes, enough to bound the work. Returns why it fails, or `undefined`.
 */
export function checkJsonValue(value: unknown, limits: MessageLimits): string | undefined {
  let bytes = 0
  const visit = (node: unknown, depth: number): string | undefined => {
    switch (typeof node) {
      case 'string':
        bytes += utf8Length(node, limits.maxBytes) + 2
        break
      case 'number':
        if (!Number.isFinite(node)) return 'not JSON: non-finite number'
        bytes += String(node).length
        break
      case 'boolean':
        bytes += node ? 4 : 5
        break
      case 'object': {
        if (node === null) {
          bytes += 4
          break
        }
        if (depth + 1 > limits.maxDepth) return 'message too deep'
        bytes += 2
        if (Array.isArray(node)) {
          for (let i = 0; i < node.length; i++) {
            if (!(i in node)) return 'not JSON: sparse array'
            bytes += 1
            if (bytes > limits.maxBytes) return 'message too large'
            const reason = visit(node[i], depth + 1)
            if (reason) return reason
          }
        } else {
          if (!isPlainObject(node)) return 'not JSON: not a plain object'
          for (const key of Object.keys(node)) {
            bytes += utf8Length(key, limits.maxBytes) + 4
            if (bytes > limits.maxBytes) return 'message too large'
            const reason = visit((node as Record<string, unknown>)[key], depth + 1)
            if (reason) return reason
          }
        }
        break
      }
      default:
        return `not JSON: ${typeof node}`
    }
    return bytes > limits.maxBytes ? 'message too large' : undefined
  }
  try {
    return visit(value, 0)
  } catch {
    // A getter or proxy that throws: whatever it is, it is not data.
    return 'not JSON: unreadable value'
  }
}
