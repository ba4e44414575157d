import { aiSdkValidate } from '../agent/aiSdkValidate'
import type { AiSdkValidationResult } from '../agent/pageToolTypes'
import type { JsonSchema } from '../types'
import { describeChatTool } from './chatToolList'
import type { ChatTool, ChatToolList } from './chatToolList'
import { markUntrusted } from './markUntrusted'
import { DEFAULT_CHAT_TOOL_LIST_LIMITS, validateChatToolList } from './validateChatToolList'
import type { ChatToolListLimits } from './validateChatToolList'

/** JSON data, as the SDK's tool outputs are typed. */
export type AiSdkJsonValue =
  | null
  | string
  | number
  | boolean
  | AiSdkJsonValue[]
  | { [key: string]: AiSdkJsonValue | undefined }

/**
 * One page tool as an AI SDK client-side tool: what the SDK's `tool({ … })` helper would return
 * for it (that helper only adds types), so the record goes to `streamText({ tools })` as it is.
 */
export interface AiSdkClientToolSpec<TSchema = unknown> {
  description: string
  inputSchema: TSchema
  /** Only for `untrustedContent` tools: marks the output the model reads. */
  toModelOutput?: (options: { toolCallId: string; input: unknown; output: unknown }) => {
    type: 'json'
    value: AiSdkJsonValue
  }
}

/** Options of `toolsFromManifest`. */
export interface ToolsFromManifestOptions<TSchema = unknown> {
  /**
   * The SDK's `jsonSchema` (`import { jsonSchema } from 'ai'`). It receives each tool's JSON
   * Schema and a `validate` built from it, so the SDK refuses arguments that do not match before
   * they reach the browser.
   */
  jsonSchema(
    schema: JsonSchema,
    options: { validate: (value: unknown) => AiSdkValidationResult },
  ): TSchema
  /**
   * Which posted tools to offer (your server's own rules, e.g. by user). Default: all of them.
   * Leaving a tool out here does not authorize anything by itself: see docs/chat-stacks.md.
   */
  filter?: (tool: ChatTool) => boolean
  /** Bounds the list is checked against again; give the ones `readToolmarkTools` used. */
  limits?: Partial<ChatToolListLimits>
}

const FREE_FORM: JsonSchema = Object.freeze({ type: 'object' })

/**
 * Turns the page's posted tool list (from `readToolmarkTools`) into AI SDK tools **without
 * `execute`**: client-side tools, which `useToolmarkChat` runs in the person's tab. Each is keyed
 * by its `llmName`, described with what its hints mean, and checked with a `validate` built from
 * its schema (never running the client's regular expressions, bounded by work), so bad arguments go back to the model as
 * `AI_InvalidToolInputError` and never reach the browser. Results of `untrustedContent` tools are
 * marked in what the model reads (`toModelOutput`; pass the same tools to
 * `convertToModelMessages`). The list is checked again here; one that is not valid throws a
 * `TypeError` (check posted bodies with `readToolmarkTools`, which answers a 400 instead).
 *
 * @example
 * ```ts
 * import { convertToModelMessages, jsonSchema, streamText } from 'ai'
 *
 * const tools = toolsFromManifest(read.manifest, { jsonSchema })
 * const result = streamText({ model, tools, messages: await convertToModelMessages(messages, { tools }) })
 * return result.toUIMessageStreamResponse()
 * ```
 */
export function toolsFromManifest<TSchema>(
  manifest: ChatToolList,
  options: ToolsFromManifestOptions<TSchema>,
): Record<string, AiSdkClientToolSpec<TSchema>> {
  const checked = validateChatToolList(manifest, {
    ...DEFAULT_CHAT_TOOL_LIST_LIMITS,
    ...options.limits,
  })
  if (!checked.ok) {
    throw new TypeError(
      `toolsFromManifest got a tool list that is not valid (${checked.path || 'root'}: ` +
        `${checked.reason}): check posted bodies with readToolmarkTools first`,
    )
  }
  // No prototype: a tool named `constructor` or `__proto__` is a key like any other.
  const tools = Object.create(null) as Record<string, AiSdkClientToolSpec<TSchema>>
  for (const entry of checked.list.tools) {
    if (options.filter && !options.filter(entry)) continue
    const schema = entry.inputSchema ?? structuredClone(FREE_FORM)
    const spec: AiSdkClientToolSpec<TSchema> = {
      description: describeChatTool(entry),
      inputSchema: options.jsonSchema(schema, {
        validate: aiSdkValidate(schema),
      }),
    }
    if (entry.hints.untrustedContent) {
      spec.toModelOutput = ({ output }) => ({
        type: 'json',
        value: markUntrusted(output) as AiSdkJsonValue,
      })
    }
    tools[entry.llmName] = spec
  }
  return tools
}
