import type { JsonSchema } from '../types'
import { MESSAGE_TYPES } from './messages'
import type { ProtocolMessage } from './messages'

/**
 * JSON Schemas (draft 2020-12) of protocol v1. They say exactly what `validateMessage` checks,
 * apart from the depth and size limits, which are the receiver's to set.
 */

const DRAFT = 'https://json-schema.org/draft/2020-12/schema'
const BASE = 'urn:toolmark:protocol:v1:'

const ref = (name: string) => ({ $ref: `#/$defs/${name}` })

const object = (
  properties: Record<string, unknown>,
  required: string[],
  extra: Record<string, unknown> = {},
) => ({ type: 'object', properties, required, additionalProperties: false, ...extra })

const DEFS: Record<string, Record<string, unknown>> = {
  id: {
    description: 'A call, describe or confirmation id; also a page clientId.',
    type: 'string',
    pattern: '^[A-Za-z0-9._:-]{1,128}$',
  },
  toolName: {
    description: 'A full tool name: [A-Za-z0-9_-] segments joined by ".".',
    type: 'string',
    maxLength: 128,
    pattern: '^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$',
  },
  rev: {
    description: 'A manifest revision.',
    type: 'integer',
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
  },
  count: { type: 'number', minimum: 0 },
  hints: object(
    {
      readOnly: { type: 'boolean' },
      consequential: { type: 'boolean' },
      destructive: { type: 'boolean' },
      untrustedContent: { type: 'boolean' },
    },
    [],
  ),
  manifestEntry: object(
    {
      name: ref('toolName'),
      llmName: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
      title: { type: 'string' },
      description: { type: 'string' },
      hints: ref('hints'),
      signature: { type: 'string' },
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object' },
    },
    ['name', 'llmName', 'description', 'hints'],
  ),
  toolResult: {
    description: 'A ToolResult, serialized with JSON semantics.',
    oneOf: [
      object({ status: { const: 'ok' }, data: true }, ['status']),
      object(
        {
          status: { const: 'invalid' },
          issues: {
            type: 'array',
            items: object({ path: { type: 'string' }, message: { type: 'string' } }, [
              'path',
              'message',
            ]),
          },
        },
        ['status', 'issues'],
      ),
      object(
        {
          status: { const: 'refused' },
          code: { type: 'string', minLength: 1 },
          message: { type: 'string' },
          rev: ref('rev'),
        },
        ['status', 'code', 'message'],
      ),
      object(
        {
          status: { const: 'needs_confirmation' },
          confirmId: ref('id'),
          summary: { type: 'string' },
          changes: {
            type: 'array',
            items: object({ path: { type: 'string' }, before: true, after: true }, ['path']),
          },
        },
        ['status', 'confirmId', 'summary'],
      ),
      object({ status: { const: 'cancelled' }, by: { enum: ['operator', 'signal', 'policy'] } }, [
        'status',
        'by',
      ]),
      object({ status: { const: 'error' }, message: { type: 'string' } }, ['status', 'message']),
    ],
  },
}

const base = (type: string) => ({
  protocol: { const: 1 },
  type: { const: type },
  clientId: ref('id'),
})

const BODIES: Record<ProtocolMessage['type'], Record<string, unknown>> = {
  manifest: object(
    { ...base('manifest'), rev: ref('rev'), tools: { type: 'array', items: ref('manifestEntry') } },
    ['protocol', 'type', 'clientId', 'rev', 'tools'],
    { description: 'page → agent: the tools this caller can see, sorted by name.' },
  ),
  result: object(
    { ...base('result'), id: ref('id'), result: ref('toolResult') },
    ['protocol', 'type', 'clientId', 'id', 'result'],
    {
      description:
        'page → agent: the one answer to a call or describe (describe: ok(entry) or refused unknown_tool).',
    },
  ),
  confirmed: object(
    { ...base('confirmed'), confirmId: ref('id'), result: ref('toolResult') },
    ['protocol', 'type', 'clientId', 'confirmId', 'result'],
    { description: 'page → agent: the outcome of a deferred confirmation.' },
  ),
  progress: object(
    {
      ...base('progress'),
      id: ref('id'),
      done: ref('count'),
      total: ref('count'),
      message: { type: 'string' },
    },
    ['protocol', 'type', 'clientId', 'id', 'done'],
    { description: 'page → agent: progress of a running call.' },
  ),
  hello: object(
    {
      ...base('hello'),
      clientId: { type: 'string', pattern: '^(\\*|[A-Za-z0-9._:-]{1,128})$' },
    },
    ['protocol', 'type', 'clientId'],
    { description: 'agent → page: asks for the manifest; clientId "*" reaches every page.' },
  ),
  call: object(
    { ...base('call'), id: ref('id'), tool: ref('toolName'), input: true, rev: ref('rev') },
    ['protocol', 'type', 'clientId', 'id', 'tool', 'input'],
    { description: 'agent → page: runs a tool.' },
  ),
  describe: object(
    { ...base('describe'), id: ref('id'), tool: ref('toolName') },
    ['protocol', 'type', 'clientId', 'id', 'tool'],
    { description: "agent → page: asks for one tool's full manifest entry." },
  ),
  cancel: object({ ...base('cancel'), id: ref('id') }, ['protocol', 'type', 'clientId', 'id'], {
    description: 'agent → page: aborts a call.',
  }),
}

/** The `$defs` a schema fragment uses, transitively. */
function usedDefs(fragment: unknown, into: Record<string, unknown> = {}): Record<string, unknown> {
  if (Array.isArray(fragment)) {
    for (const item of fragment) usedDefs(item, into)
  } else if (fragment !== null && typeof fragment === 'object') {
    for (const [key, value] of Object.entries(fragment)) {
      if (key === '$ref' && typeof value === 'string') {
        const name = value.slice('#/$defs/'.length)
        if (!(name in into)) {
          into[name] = DEFS[name]
          usedDefs(DEFS[name], into)
        }
      } else usedDefs(value, into)
    }
  }
  return into
}

const sorted = (defs: Record<string, unknown>) =>
  Object.fromEntries(
    Object.keys(defs)
      .sort()
      .map((name) => [name, defs[name]]),
  )

const freeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) freeze(item)
    Object.freeze(value)
  }
  return value
}

const schemaDocument = (
  name: string,
  title: string,
  body: Record<string, unknown>,
): JsonSchema => ({
  $schema: DRAFT,
  $id: `${BASE}${name}`,
  title,
  ...structuredClone(body),
  $defs: structuredClone(sorted(usedDefs(body))),
})

/** The JSON Schema of each protocol v1 message, by `type`. Deep-frozen. */
export const messageSchemas: Readonly<Record<ProtocolMessage['type'], JsonSchema>> = freeze(
  Object.fromEntries(
    Object.entries(BODIES).map(([type, body]) => [
      type,
      schemaDocument(type, `Toolmark protocol v1 ${type} message`, body),
    ]),
  ) as Record<ProtocolMessage['type'], JsonSchema>,
)

const direction = (name: string, title: string, types: readonly string[]): JsonSchema => {
  const bodies = types.map((type) => BODIES[type as ProtocolMessage['type']])
  return schemaDocument(name, title, { oneOf: bodies })
}

/** One JSON Schema per direction: any message an agent may send (`toPage`) or a page may send (`toAgent`). */
export const directionSchemas: Readonly<{ toPage: JsonSchema; toAgent: JsonSchema }> = freeze({
  toPage: direction('to-page', 'Toolmark protocol v1 message, agent → page', MESSAGE_TYPES.toPage),
  toAgent: direction(
    'to-agent',
    'Toolmark protocol v1 message, page → agent',
    MESSAGE_TYPES.toAgent,
  ),
})
