import { isPlainObject, own } from '../base/guards'
import { checkJsonText, checkJsonValue } from '../protocol/bounds'
import { TOOLMARK_BODY_FIELD } from './chatToolList'
import type { ChatToolList } from './chatToolList'
import { DEFAULT_CHAT_TOOL_LIST_LIMITS, validateChatToolList } from './validateChatToolList'
import type { ChatToolListLimits } from './validateChatToolList'

/** Options of `readToolmarkTools`: bounds on the body and on the tool list it carries. */
export interface ReadToolmarkToolsOptions extends Partial<ChatToolListLimits> {
  /**
   * Largest request body, in bytes. The body carries the whole conversation, so it is larger
   * than the tool list. Default 4 194 304 (4 MiB).
   */
  maxBodyBytes?: number
  /** Deepest nesting of the body. Default 64. */
  maxBodyDepth?: number
}

/** Why a body was refused (docs/codes.md lists them). */
export type ReadToolmarkToolsErrorCode =
  'body_too_large' | 'body_too_deep' | 'not_json' | 'invalid_tools'

/** Why a body was refused; `code` is stable, `message` is for people. */
export interface ReadToolmarkToolsError {
  code: ReadToolmarkToolsErrorCode
  message: string
}

/** What `readToolmarkTools` answers: the body and its checked tool list, or a 400 to send back. */
export type ReadToolmarkToolsResult =
  | {
      ok: true
      /** The parsed body (the conversation is in `body.messages`). */
      body: Record<string, unknown>
      /** The page's tools, checked: hand them to `toolsFromManifest`. */
      manifest: ChatToolList
    }
  | { ok: false; status: 400; error: ReadToolmarkToolsError }

const MAX_BODY_BYTES = 4_194_304
const MAX_BODY_DEPTH = 64

const fail = (code: ReadToolmarkToolsErrorCode, message: string): ReadToolmarkToolsResult => ({
  ok: false,
  status: 400,
  error: { code, message },
})

const positive = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback

const isRequest = (value: unknown): value is Request =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Request).text === 'function' &&
  typeof (value as Request).headers === 'object'

/** The body's text, read no further than `maxBytes` (a larger body is never held whole). */
async function readText(request: Request, maxBytes: number): Promise<string | 'too_large'> {
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > maxBytes) return 'too_large'
  if (!request.body) return request.text()
  const reader = request.body.getReader()
  const decoder = new TextDecoder()
  let bytes = 0
  let text = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    bytes += value.byteLength
    if (bytes > maxBytes) {
      void reader.cancel().catch(() => {})
      return 'too_large'
    }
    text += decoder.decode(value, { stream: true })
  }
  return text + decoder.decode()
}

/**
 * Reads a chat request that `useToolmarkChat` sent — a `Request` (its body is read here, no
 * further than `maxBodyBytes`) or a body you already parsed — and checks the page's tool list
 * it carries in `body.toolmark` as hostile input. A body without that field carries no tools.
 * Never throws: a body that is too large, too deep or not JSON, and a tool list that is not
 * one, give `{ ok: false, status: 400, error: { code, message } }` to send back as it is.
 *
 * @example
 * ```ts
 * const read = await readToolmarkTools(request)
 * if (!read.ok) return Response.json(read.error, { status: read.status })
 * const tools = toolsFromManifest(read.manifest, { jsonSchema })
 * ```
 */
export async function readToolmarkTools(
  input: Request | unknown,
  options: ReadToolmarkToolsOptions = {},
): Promise<ReadToolmarkToolsResult> {
  const maxBytes = positive(options.maxBodyBytes, MAX_BODY_BYTES)
  const maxDepth = positive(options.maxBodyDepth, MAX_BODY_DEPTH)
  let body: unknown
  if (isRequest(input)) {
    let text: string
    try {
      const read = await readText(input, maxBytes)
      if (read === 'too_large') return fail('body_too_large', `The body is over ${maxBytes} bytes`)
      text = read
    } catch {
      return fail('not_json', 'The body could not be read')
    }
    const bounds = checkJsonText(text, { maxBytes, maxDepth })
    if (bounds === 'message too large') {
      return fail('body_too_large', `The body is over ${maxBytes} bytes`)
    }
    if (bounds) return fail('body_too_deep', `The body is nested deeper than ${maxDepth}`)
    try {
      body = JSON.parse(text)
    } catch {
      return fail('not_json', 'The body is not JSON')
    }
  } else {
    const bounds = checkJsonValue(input, { maxBytes, maxDepth })
    if (bounds === 'message too large') {
      return fail('body_too_large', `The body is over ${maxBytes} bytes`)
    }
    if (bounds === 'message too deep') {
      return fail('body_too_deep', `The body is nested deeper than ${maxDepth}`)
    }
    if (bounds) return fail('not_json', `The body is not JSON data (${bounds.slice(10)})`)
    body = input
  }
  if (!isPlainObject(body)) return fail('not_json', 'The body is not a JSON object')

  const posted = own(body, TOOLMARK_BODY_FIELD)
  if (posted === undefined) return { ok: true, body, manifest: { tools: [] } }
  const limits: ChatToolListLimits = {
    maxTools: positive(options.maxTools, DEFAULT_CHAT_TOOL_LIST_LIMITS.maxTools),
    maxBytes: positive(options.maxBytes, DEFAULT_CHAT_TOOL_LIST_LIMITS.maxBytes),
    maxDepth: positive(options.maxDepth, DEFAULT_CHAT_TOOL_LIST_LIMITS.maxDepth),
    maxDescription: positive(options.maxDescription, DEFAULT_CHAT_TOOL_LIST_LIMITS.maxDescription),
  }
  const checked = validateChatToolList(posted, limits)
  if (!checked.ok) {
    const at = checked.path ? `${TOOLMARK_BODY_FIELD}.${checked.path}` : TOOLMARK_BODY_FIELD
    return fail('invalid_tools', `${at}: ${checked.reason}`)
  }
  return { ok: true, body, manifest: checked.list }
}
