import { isPlainObject } from '../base/guards'
import { isToolName, toLlmName } from '../tool/names'
import { checkJsonValue } from '../protocol/bounds'
import type { JsonSchema, ToolHints } from '../types'
import type { ChatTool, ChatToolList } from './chatToolList'

/** Bounds on a posted tool list. */
export interface ChatToolListLimits {
  /** Most tools. Default 128. */
  maxTools: number
  /** Largest list, in bytes of its JSON text. Default 262 144 (256 KiB). */
  maxBytes: number
  /** Deepest nesting of the list (`{ tools: [{ inputSchema: … }] }` is 4 at the schema). Default 32. */
  maxDepth: number
  /** Longest description, in characters. Default 4 096. */
  maxDescription: number
}

export const DEFAULT_CHAT_TOOL_LIST_LIMITS: Readonly<ChatToolListLimits> = Object.freeze({
  maxTools: 128,
  maxBytes: 262_144,
  maxDepth: 32,
  maxDescription: 4_096,
})

/** The list, checked and copied; or where and why it failed. */
export type ChatToolListCheck =
  { ok: true; list: ChatToolList } | { ok: false; path: string; reason: string }

const HINTS = new Set(['readOnly', 'consequential', 'destructive', 'untrustedContent'])
const TOOL_KEYS = new Set(['name', 'llmName', 'description', 'hints', 'inputSchema'])

class Issue {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {}
}

function tool(value: unknown, path: string, limits: ChatToolListLimits): ChatTool {
  if (!isPlainObject(value)) throw new Issue(path, 'expected an object')
  for (const key of Object.keys(value)) {
    if (!TOOL_KEYS.has(key)) throw new Issue(`${path}.${key}`, 'unexpected key')
  }
  const { name, llmName, description, hints, inputSchema } = value
  if (!isToolName(name)) throw new Issue(`${path}.name`, 'expected a tool name')
  // The model's name is derived, never chosen by the client: one name, one model tool.
  if (llmName !== toLlmName(name)) {
    throw new Issue(`${path}.llmName`, `expected "${toLlmName(name)}"`)
  }
  if (typeof description !== 'string') throw new Issue(`${path}.description`, 'expected a string')
  if (description.length > limits.maxDescription) {
    throw new Issue(`${path}.description`, `longer than ${limits.maxDescription} characters`)
  }
  if (!isPlainObject(hints)) throw new Issue(`${path}.hints`, 'expected an object')
  const flags: ToolHints = {}
  for (const [key, flag] of Object.entries(hints)) {
    if (!HINTS.has(key)) throw new Issue(`${path}.hints.${key}`, 'unknown hint')
    if (typeof flag !== 'boolean') throw new Issue(`${path}.hints.${key}`, 'expected a boolean')
    if (flag) flags[key as keyof ToolHints] = true
  }
  const out: ChatTool = { name, llmName, description, hints: flags }
  if (inputSchema !== undefined) {
    if (!isPlainObject(inputSchema)) throw new Issue(`${path}.inputSchema`, 'expected an object')
    out.inputSchema = structuredClone(inputSchema) as JsonSchema
  }
  return out
}

/**
 * Checks a posted tool list as hostile input: plain JSON within `limits` (bytes, depth, tool
 * count, description length), only the keys a `ChatTool` has, valid names whose `llmName` is
 * the one Toolmark derives, no name twice. Returns a checked copy; never throws.
 */
export function validateChatToolList(
  value: unknown,
  limits: ChatToolListLimits = DEFAULT_CHAT_TOOL_LIST_LIMITS,
): ChatToolListCheck {
  const bounds = checkJsonValue(value, { maxBytes: limits.maxBytes, maxDepth: limits.maxDepth })
  if (bounds) return { ok: false, path: '', reason: bounds.replace('message', 'tool list') }
  try {
    if (!isPlainObject(value)) throw new Issue('', 'expected an object')
    for (const key of Object.keys(value)) {
      if (key !== 'tools') throw new Issue(key, 'unexpected key')
    }
    const { tools } = value
    if (!Array.isArray(tools)) throw new Issue('tools', 'expected an array')
    if (tools.length > limits.maxTools) {
      throw new Issue('tools', `more than ${limits.maxTools} tools`)
    }
    const seen = new Set<string>()
    const checked = tools.map((entry, i) => {
      const one = tool(entry, `tools.${i}`, limits)
      if (seen.has(one.llmName)) throw new Issue(`tools.${i}.name`, 'listed twice')
      seen.add(one.llmName)
      return one
    })
    return { ok: true, list: { tools: checked } }
  } catch (error) {
    if (error instanceof Issue) return { ok: false, path: error.path, reason: error.reason }
    return { ok: false, path: '', reason: 'unreadable tool list' }
  }
}
