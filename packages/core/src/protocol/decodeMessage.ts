import { checkJsonText, checkJsonValue, DEFAULT_MESSAGE_LIMITS } from './bounds'
import type { MessageLimits } from './bounds'
import type { MessageDirection, ToAgentMessage, ToPageMessage } from './messages'
import { validateMessage } from './validateMessage'
import type { MessageCheck } from './validateMessage'

/**
 * Turns what a transport delivered into a checked message, treating it as hostile: JSON text is
 * measured (bytes and bracket depth) before `JSON.parse`; any other value is walked within the
 * same limits, must be plain JSON data, and is copied so later changes by its sender cannot reach
 * the receiver. Then `validateMessage` runs. Never throws.
 *
 * @example
 * transport.onMessage((raw) => {
 *   const check = decodeMessage(raw, 'toAgent')
 *   if (check.ok) handle(check.message)
 * })
 */
export function decodeMessage(
  raw: unknown,
  direction: 'toPage',
  limits?: Partial<MessageLimits>,
): MessageCheck<ToPageMessage>
export function decodeMessage(
  raw: unknown,
  direction: 'toAgent',
  limits?: Partial<MessageLimits>,
): MessageCheck<ToAgentMessage>
export function decodeMessage(
  raw: unknown,
  direction: MessageDirection,
  limits: Partial<MessageLimits> = {},
): MessageCheck<ToPageMessage | ToAgentMessage> {
  const defaults = DEFAULT_MESSAGE_LIMITS[direction] ?? DEFAULT_MESSAGE_LIMITS.toPage
  const bounds: MessageLimits = {
    maxBytes: limits.maxBytes ?? defaults.maxBytes,
    maxDepth: limits.maxDepth ?? defaults.maxDepth,
  }
  let value: unknown
  if (typeof raw === 'string') {
    const reason = checkJsonText(raw, bounds)
    if (reason) return { ok: false, path: '', reason }
    try {
      value = JSON.parse(raw)
    } catch {
      return { ok: false, path: '', reason: 'not JSON' }
    }
  } else {
    const reason = checkJsonValue(raw, bounds)
    if (reason) return { ok: false, path: '', reason }
    value = JSON.parse(JSON.stringify(raw))
  }
  return validateMessage(value, direction, { maxDepth: bounds.maxDepth })
}
