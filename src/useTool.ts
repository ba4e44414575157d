'use client'
import { useContext, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import type { ToolDefinition, ToolResult, ToolStatus, Toolmark } from '@toolmark/core'
import { useResolvedToolmark } from './ToolmarkContext'
import { ScopeContext, joinPath } from './ScopeContext'
import { IDLE, createToolCallStore } from './toolCallStore'
import { latestSchema, sameJsonSchema, sameSchema } from './stableSchema'

/** Options of {@link useTool}. */
export interface UseToolOptions {
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
}

/** Where a tool's calls stand: `'idle'` before any call, `'running'` while one runs, else the last result's status. */
export type UseToolStatus = 'idle' | 'running' | ToolStatus

/** What {@link useTool} returns. */
export interface UseToolResult<TInput = unknown, TOutput = unknown> {
  /** The full name agents see (scope path + local name). */
  name: string
  /** `'running'` while any caller's call runs; the last result's status after. */
  status: UseToolStatus
  /** The last result, whoever called. */
  lastResult: ToolResult<TOutput> | undefined
  /**
   * Calls the tool as caller `human`: the same validation and `run` an agent gets, without a
   * confirmation (a person is acting). Never throws.
   */
  call(input?: TInput): Promise<ToolResult<TOutput>>
}

const getServerSnapshot = () => IDLE

/**
 * Declares a tool while the component is mounted. `run`, `summary`, `confirmation` and schema
 * validation always see the latest props and state; the tool is registered again only when its
 * name, description, title, hints, sensitive paths, deadline or schemas change. A schema written
 * inline is a new object on every render, so a new schema object counts as a change only when
 * its JSON Schema differs: ordinary re-renders never touch the registry's revision (nor withdraw
 * the tool's pending confirmations). Inert during server rendering.
 *
 * @example
 * ```tsx
 * function Counter() {
 *   const [count, setCount] = useState(0)
 *   const increment = useTool({
 *     name: 'counter.increment',
 *     description: 'Adds `by` to the counter and returns the new value.',
 *     input: z.object({ by: z.number().int().default(1) }),
 *     run: ({ by }) => {
 *       setCount((c) => c + by)
 *       return ok({ count: count + by })
 *     },
 *   })
 *   return <button onClick={() => increment.call({ by: 1 })}>Count: {count}</button>
 * }
 * ```
 */
export function useTool<TInput = unknown, TOutput = unknown>(
  def: ToolDefinition<TInput, TOutput>,
  options: UseToolOptions = {},
): UseToolResult<TInput, TOutput> {
  const tm = useResolvedToolmark(options.toolmark, 'useTool')
  const inherited = useContext(ScopeContext)
  const slot = inherited?.toolmark === tm ? inherited : null
  const fullName = joinPath(slot?.path ?? '', def.name)

  const latest = useRef(def)
  useLayoutEffect(() => {
    latest.current = def
  })

  // Inline schemas are new objects on every render: keep the last equivalent ones (see
  // stableSchema) so a re-render never registers again, and validate with the latest.
  const [schemas, setSchemas] = useState(() => ({
    input: def.input,
    output: def.output,
    inputSchema: def.inputSchema,
  }))
  if (
    !sameSchema(schemas.input, def.input, 'input') ||
    !sameSchema(schemas.output, def.output, 'output') ||
    !sameJsonSchema(schemas.inputSchema, def.inputSchema)
  ) {
    setSchemas({ input: def.input, output: def.output, inputSchema: def.inputSchema })
  }
  const { input, output, inputSchema } = schemas

  const { name, description, title, timeoutMs } = def
  const hasSummary = typeof def.summary === 'function'
  const hasConfirmation = typeof def.confirmation === 'function'
  const hintsKey = hintsToKey(def.hints)
  // A function is read at every use (through the ref); a list is compared by value.
  const sensitiveKey =
    typeof def.sensitive === 'function'
      ? FUNCTION
      : def.sensitive
        ? JSON.stringify(def.sensitive)
        : ''

  // One subscription both registers the tool and watches its calls: mounted means registered
  // and watched, and a change in what agents see makes a new subscription (so a new
  // registration). This keeps a tool to one effect, which matters with hundreds of them.
  const source = useMemo(() => {
    const calls = createToolCallStore(tm, fullName)
    const register = () => {
      const current = latest.current
      const registered: ToolDefinition<TInput, TOutput> = {
        name,
        description,
        title,
        input: input && latestSchema(input, () => latest.current.input),
        output: output && latestSchema(output, () => latest.current.output),
        inputSchema,
        timeoutMs,
        hints: keyToHints(hintsKey),
        sensitive:
          sensitiveKey === FUNCTION
            ? () => readSensitive(latest.current.sensitive)
            : sensitiveKey
              ? (JSON.parse(sensitiveKey) as string[])
              : undefined,
        summary: hasSummary
          ? (value) => latest.current.summary?.(value) ?? current.description
          : undefined,
        confirmation: hasConfirmation
          ? (value) => latest.current.confirmation?.(value) ?? {}
          : undefined,
        run: (value, ctx) => latest.current.run(value, ctx),
      }
      return tm.register(registered, slot ? { scope: slot.acquire() } : undefined)
    }
    return {
      subscribe(listener: () => void) {
        const handle = register()
        const unwatch = calls.subscribe(listener)
        return () => {
          unwatch()
          handle.dispose()
        }
      },
      getSnapshot: calls.getSnapshot,
      call: (value?: TInput) =>
        tm.call(fullName, value, { caller: 'human' }) as Promise<ToolResult<TOutput>>,
    }
  }, [
    tm,
    slot,
    fullName,
    name,
    description,
    title,
    input,
    output,
    inputSchema,
    timeoutMs,
    hasSummary,
    hasConfirmation,
    hintsKey,
    sensitiveKey,
  ])
  const snapshot = useSyncExternalStore(source.subscribe, source.getSnapshot, getServerSnapshot)

  return {
    name: fullName,
    status: snapshot.status,
    lastResult: snapshot.lastResult as ToolResult<TOutput> | undefined,
    call: source.call,
  }
}

const FUNCTION = '(function)'

function readSensitive(sensitive: ToolDefinition['sensitive']): readonly string[] {
  if (typeof sensitive === 'function') return sensitive()
  return sensitive ?? []
}

const HINTS = ['readOnly', 'consequential', 'destructive', 'untrustedContent'] as const

/** Hints compared by value: an inline `hints={{ readOnly: true }}` must not re-register. */
function hintsToKey(hints: ToolDefinition['hints']): string {
  if (!hints) return ''
  let key = ''
  for (const hint of HINTS) if (hints[hint]) key = key ? `${key},${hint}` : hint
  return key
}

function keyToHints(key: string): ToolDefinition['hints'] {
  if (!key) return undefined
  return Object.fromEntries(key.split(',').map((hint) => [hint, true]))
}
