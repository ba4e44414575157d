import { aiSdkValidate } from '../agent/aiSdkValidate'
import { describeForModel } from '../agent/directTools'
import type { AiSdkValidationResult } from '../agent/pageToolTypes'
import type { JsonSchema } from '../types'
import type { ChatTool, ChatToolList } from './chatToolList'
import { markUntrusted } from './markUntrusted'
import { DEFAULT_CHAT_TOOL_LIST_LIMITS, validateChatToolList } from './validateChatToolList'
import type { ChatToolListLimits } from './validateChatToolList'
import { withoutPatterns } from './withoutPatterns'

/** What `toolsFromManifest` hands the SDK's `tool` helper for one page tool. */
export interface AiSdkClientToolSpec<TSchema = unknown> {
  description: string
  inputSchema: TSchema
  /** Only for `untrustedContent` tools: marks the output the model reads. */
  toModelOutput?: (options: { output: unknown }) => { type: 'json'; value: unknown }
}

/** Options of `toolsFromManifest`. */
export interface ToolsFromManifestOptions<TSchema = unknown, TTool = AiSdkClientToolSpec<TSchema>> {
  /**
   * The SDK's `jsonSchema` (`import { jsonSchema } from 'ai'`). It receives each tool's JSON
   * Schema and a `validate` built from it, so the SDK refuses arguments that do not match before
   * they reach the browser.
   */
  jsonSchema(
    schema: JsonSchema,
    options: { validate: (value: unknown) => AiSdkValidationResult },
  ): TSchema
  /** The SDK's `tool` helper (`import { tool } from 'ai'`). Default: the spec as it is. */
  tool?: (spec: AiSdkClientToolSpec<TSchema>) => TTool
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
 * its schema (without the client's regular expressions), so bad arguments go back to the model as
 * `AI_InvalidToolInputError` and never reach the browser. Results of `untrustedContent` tools are
 * marked in what the model reads (`toModelOutput`; pass the same tools to
 * `convertToModelMessages`). The list is checked again here; one that is not valid throws a
 * `TypeError` (check posted bodies with `readToolmarkTools`, which answers a 400 instead).
 *
 * @example
 * ```ts
 * import { convertToModelMessages, jsonSchema, streamText, tool } from 'ai'
 *
 * const tools = toolsFromManifest(read.manifest, { jsonSchema, tool })
 * const result = streamText({ model, tools, messages: await convertToModelMessages(messages, { tools }) })
 * return result.toUIMessageStreamResponse()
 * ```
 */
export function toolsFromManifest<TSchema, TTool = AiSdkClientToolSpec<TSchema>>(
  manifest: ChatToolList,
  options: ToolsFromManifestOptions<TSchema, TTool>,
): Record<string, TTool> {
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
  const make = options.tool ?? ((spec: AiSdkClientToolSpec<TSchema>) => spec as TTool)
  // No prototype: a tool named `constructor` or `__proto__` is a key like any other.
  const tools = Object.create(null) as Record<string, TTool>
  for (const entry of checked.list.tools) {
    if (options.filter && !options.filter(entry)) continue
    const schema = entry.inputSchema ?? structuredClone(FREE_FORM)
    const spec: AiSdkClientToolSpec<TSchema> = {
      description: describeForModel(entry),
      inputSchema: options.jsonSchema(schema, {
        validate: aiSdkValidate(withoutPatterns(schema)),
      }),
    }
    if (entry.hints.untrustedContent) {
      spec.toModelOutput = ({ output }) => ({ type: 'json', value: markUntrusted(output) })
    }
    tools[entry.llmName] = make(spec)
  }
  return tools
}
