import { joinPath } from '../base/guards'
import { checkJsonValue, DEFAULT_MESSAGE_LIMITS } from './bounds'
import type { MessageDirection, ToAgentMessage, ToPageMessage } from './messages'
import { PROTOCOL_VERSION } from './messages'

/** The outcome of checking one message: the typed message, or where and why it failed. */
export type MessageCheck<TMessage> =
  { ok: true; message: TMessage } | { ok: false; path: string; reason: string }

/** Options of `validateMessage`. */
export interface ValidateMessageOptions {
  /** Deepest nesting allowed (the message object is depth 1). Default 64 to a page, 128 to an agent. */
  maxDepth?: number
}

/** Ids of calls, describes and confirmations; also a page's `clientId`. */
export const ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/
/** Full tool names: `[A-Za-z0-9_-]` segments joined by `.`, at most 128 characters. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/
/** A tool's `llmName`: no dots, at most 64 characters. */
export const LLM_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/
/** The longest tool name. */
export const TOOL_NAME_MAX = 128

const HINTS = ['readOnly', 'consequential', 'destructive', 'untrustedContent']
const CANCELLED_BY = ['operator', 'signal', 'policy']

/** Thrown inside the validator only, to unwind to `validateMessage` with the first issue. */
class Issue {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {}
}

type Obj = Record<string, unknown>

function object(value: unknown, path: string): Obj {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Issue(path, 'expected an object')
  }
  return value as Obj
}

/** Rejects keys outside `allowed` and missing `required` keys. */
function keys(value: Obj, path: string, required: string[], optional: string[] = []): void {
  for (const key of required) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) {
      throw new Issue(joinPath(path, key), 'required')
    }
  }
  for (const key of Object.keys(value)) {
    if (!required.includes(key) && !optional.includes(key)) {
      throw new Issue(joinPath(path, key), 'unexpected key')
    }
  }
}

function string(value: unknown, path: string): string {
  if (typeof value !== 'string') throw new Issue(path, 'expected a string')
  return value
}

function matching(value: unknown, path: string, pattern: RegExp, what: string, max = Infinity) {
  if (typeof value !== 'string' || value.length > max || !pattern.test(value)) {
    throw new Issue(path, `expected ${what}`)
  }
}

function revision(value: unknown, path: string): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new Issue(path, 'expected a non-negative integer')
  }
}

function count(value: unknown, path: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new Issue(path, 'expected a non-negative number')
  }
}

function array(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new Issue(path, 'expected an array')
  return value
}

function toolResult(value: unknown, path: string): void {
  const result = object(value, path)
  switch (result.status) {
    case 'ok':
      keys(result, path, ['status'], ['data'])
      return
    case 'invalid':
      keys(result, path, ['status', 'issues'])
      array(result.issues, joinPath(path, 'issues')).forEach((item, i) => {
        const at = joinPath(joinPath(path, 'issues'), i)
        const issue = object(item, at)
        keys(issue, at, ['path', 'message'])
        string(issue.path, joinPath(at, 'path'))
        string(issue.message, joinPath(at, 'message'))
      })
      return
    case 'refused':
      keys(result, path, ['status', 'code', 'message'], ['rev'])
      if (string(result.code, joinPath(path, 'code')) === '') {
        throw new Issue(joinPath(path, 'code'), 'expected a non-empty string')
      }
      string(result.message, joinPath(path, 'message'))
      if (result.rev !== undefined) revision(result.rev, joinPath(path, 'rev'))
      return
    case 'needs_confirmation':
      keys(result, path, ['status', 'confirmId', 'summary'], ['changes'])
      matching(result.confirmId, joinPath(path, 'confirmId'), ID_PATTERN, 'an id')
      string(result.summary, joinPath(path, 'summary'))
      if (result.changes !== undefined) {
        array(result.changes, joinPath(path, 'changes')).forEach((item, i) => {
          const at = joinPath(joinPath(path, 'changes'), i)
          const change = object(item, at)
          keys(change, at, ['path'], ['before', 'after'])
          string(change.path, joinPath(at, 'path'))
        })
      }
      return
    case 'cancelled':
      keys(result, path, ['status', 'by'])
      if (!CANCELLED_BY.includes(result.by as string)) {
        throw new Issue(joinPath(path, 'by'), 'expected "operator", "signal" or "policy"')
      }
      return
    case 'error':
      keys(result, path, ['status', 'message'])
      string(result.message, joinPath(path, 'message'))
      return
    default:
      throw new Issue(joinPath(path, 'status'), 'unknown status')
  }
}

function manifestEntry(value: unknown, path: string): void {
  const entry = object(value, path)
  keys(
    entry,
    path,
    ['name', 'llmName', 'description', 'hints'],
    ['title', 'signature', 'inputSchema', 'outputSchema'],
  )
  matching(entry.name, joinPath(path, 'name'), TOOL_NAME_PATTERN, 'a tool name', TOOL_NAME_MAX)
  matching(entry.llmName, joinPath(path, 'llmName'), LLM_NAME_PATTERN, 'an LLM tool name')
  string(entry.description, joinPath(path, 'description'))
  if (entry.title !== undefined) string(entry.title, joinPath(path, 'title'))
  if (entry.signature !== undefined) string(entry.signature, joinPath(path, 'signature'))
  if (entry.inputSchema !== undefined) object(entry.inputSchema, joinPath(path, 'inputSchema'))
  if (entry.outputSchema !== undefined) object(entry.outputSchema, joinPath(path, 'outputSchema'))
  const hintsPath = joinPath(path, 'hints')
  const hints = object(entry.hints, hintsPath)
  keys(hints, hintsPath, [], HINTS)
  for (const [key, flag] of Object.entries(hints)) {
    if (typeof flag !== 'boolean') throw new Issue(joinPath(hintsPath, key), 'expected a boolean')
  }
}

function toPage(message: Obj): void {
  switch (message.type) {
    case 'hello':
      keys(message, '', ['protocol', 'type', 'clientId'])
      if (message.clientId !== '*') matching(message.clientId, 'clientId', ID_PATTERN, 'an id')
      return
    case 'call':
      keys(message, '', ['protocol', 'type', 'clientId', 'id', 'tool', 'input'], ['rev'])
      if (message.rev !== undefined) revision(message.rev, 'rev')
      break
    case 'describe':
      keys(message, '', ['protocol', 'type', 'clientId', 'id', 'tool'])
      break
    case 'cancel':
      keys(message, '', ['protocol', 'type', 'clientId', 'id'])
      break
    default:
      throw new Issue('type', 'not a message an agent sends')
  }
  matching(message.clientId, 'clientId', ID_PATTERN, 'an id')
  matching(message.id, 'id', ID_PATTERN, 'an id')
  if (message.type !== 'cancel') {
    matching(message.tool, 'tool', TOOL_NAME_PATTERN, 'a tool name', TOOL_NAME_MAX)
  }
}

function toAgent(message: Obj): void {
  switch (message.type) {
    case 'manifest':
      keys(message, '', ['protocol', 'type', 'clientId', 'rev', 'tools'])
      revision(message.rev, 'rev')
      array(message.tools, 'tools').forEach((entry, i) =>
        manifestEntry(entry, joinPath('tools', i)),
      )
      break
    case 'result':
      keys(message, '', ['protocol', 'type', 'clientId', 'id', 'result'])
      matching(message.id, 'id', ID_PATTERN, 'an id')
      toolResult(message.result, 'result')
      break
    case 'confirmed':
      keys(message, '', ['protocol', 'type', 'clientId', 'confirmId', 'result'])
      matching(message.confirmId, 'confirmId', ID_PATTERN, 'an id')
      toolResult(message.result, 'result')
      break
    case 'progress':
      keys(message, '', ['protocol', 'type', 'clientId', 'id', 'done'], ['total', 'message'])
      matching(message.id, 'id', ID_PATTERN, 'an id')
      count(message.done, 'done')
      if (message.total !== undefined) count(message.total, 'total')
      if (message.message !== undefined) string(message.message, 'message')
      break
    default:
      throw new Issue('type', 'not a message a page sends')
  }
  matching(message.clientId, 'clientId', ID_PATTERN, 'an id')
}

/**
 * Checks that `value` is a well-formed protocol v1 message travelling in `direction`: plain JSON
 * data within the depth limit, `protocol: 1`, a known `type`, every required field with the right
 * shape and no key the protocol does not define. Never throws.
 *
 * @example
 * const check = validateMessage(JSON.parse(text), 'toPage')
 * if (check.ok) handle(check.message)
 * else console.warn(`invalid at "${check.path}": ${check.reason}`)
 */
export function validateMessage(
  value: unknown,
  direction: 'toPage',
  options?: ValidateMessageOptions,
): MessageCheck<ToPageMessage>
export function validateMessage(
  value: unknown,
  direction: 'toAgent',
  options?: ValidateMessageOptions,
): MessageCheck<ToAgentMessage>
export function validateMessage(
  value: unknown,
  direction: MessageDirection,
  options?: ValidateMessageOptions,
): MessageCheck<ToPageMessage | ToAgentMessage>
export function validateMessage(
  value: unknown,
  direction: MessageDirection,
  options: ValidateMessageOptions = {},
): MessageCheck<ToPageMessage | ToAgentMessage> {
  if (direction !== 'toPage' && direction !== 'toAgent') {
    return { ok: false, path: '', reason: 'unknown direction' }
  }
  const maxDepth = options.maxDepth ?? DEFAULT_MESSAGE_LIMITS[direction].maxDepth
  const bounds = checkJsonValue(value, { maxBytes: Infinity, maxDepth })
  if (bounds) return { ok: false, path: '', reason: bounds }
  try {
    const message = object(value, '')
    if (!Object.prototype.hasOwnProperty.call(message, 'protocol')) {
      throw new Issue('protocol', 'required')
    }
    if (message.protocol !== PROTOCOL_VERSION) {
      throw new Issue('protocol', `expected ${PROTOCOL_VERSION}`)
    }
    if (typeof message.type !== 'string') throw new Issue('type', 'expected a string')
    if (direction === 'toPage') toPage(message)
    else toAgent(message)
    return { ok: true, message: message as unknown as ToPageMessage | ToAgentMessage }
  } catch (error) {
    if (error instanceof Issue) return { ok: false, path: error.path, reason: error.reason }
    return { ok: false, path: '', reason: 'unreadable message' }
  }
}
