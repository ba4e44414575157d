import { reportError } from '../../events/reportError'
import { errorResult, ok } from '../../base/results'
import type { JsonSchema, StandardSchemaV1, ToolContext, ToolResult } from '../../types'
import type { FormContext } from './formContext'
import { isPlainObject } from '../values/paths'
import type { FormOption, FormOptionsLookup, FormOptionsResult } from '../values/types'

class TimeoutError extends Error {
  override name = 'TimeoutError'
}

const OPTION_VALUE_TYPES = new Set(['string', 'number', 'boolean'])

/** The input of `<form>.options`: `{ field, query? }`, `field` one of the declared fields. */
function optionsInput(
  fields: string[],
): StandardSchemaV1<unknown, { field: string; query?: string }> {
  return {
    '~standard': {
      version: 1,
      vendor: 'toolmark',
      validate(value) {
        if (!isPlainObject(value)) {
          return { issues: [{ message: 'Expected an object { field, query? }', path: [] }] }
        }
        const issues: { message: string; path: string[] }[] = []
        for (const key of Object.keys(value)) {
          if (key !== 'field' && key !== 'query')
            issues.push({ message: 'Unknown key', path: [key] })
        }
        if (typeof value.field !== 'string' || !fields.includes(value.field)) {
          issues.push({ message: `Expected one of: ${fields.join(', ')}`, path: ['field'] })
        }
        if (
          value.query !== undefined &&
          (typeof value.query !== 'string' || value.query.length > 200)
        ) {
          issues.push({ message: 'Expected a string of at most 200 characters', path: ['query'] })
        }
        if (issues.length > 0) return { issues }
        const out: { field: string; query?: string } = { field: value.field as string }
        if (typeof value.query === 'string') out.query = value.query
        return { value: out }
      },
    },
  }
}

/**
 * `<form>.options`: looks up the allowed values of a field, bounded in time
 * (`limits.optionsTimeoutMs`) and size (`limits.optionsItems`), aborted with the call.
 */
export function createOptionsTool(
  form: FormContext,
  lookups: Readonly<Record<string, FormOptionsLookup>>,
) {
  const { tm } = form
  const fields = Object.keys(lookups).sort()

  async function lookupOptions(
    input: { field: string; query?: string },
    ctx: ToolContext,
  ): Promise<ToolResult<FormOptionsResult>> {
    const lookup = lookups[input.field]
    const controller = new AbortController()
    const onAbort = () => controller.abort(ctx.signal.reason)
    if (ctx.signal.aborted) onAbort()
    else ctx.signal.addEventListener('abort', onAbort, { once: true })
    const ms = tm.limits.optionsTimeoutMs
    let timer: ReturnType<typeof setTimeout> | undefined
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new TimeoutError(`Options lookup timed out after ${ms} ms`))
        resolve('timeout')
      }, ms)
    })
    const failed = (message: string, cause?: unknown) => {
      reportError(tm, {
        code: 'options_failed',
        message: `Options lookup for "${input.field}" of form "${form.name}" ${message}`,
        tool: form.handles.options?.name,
        callId: ctx.callId,
        ...(cause === undefined ? {} : { cause }),
      })
      return errorResult('Options lookup failed')
    }
    try {
      const settled = await Promise.race([
        Promise.resolve()
          .then(() => lookup({ query: input.query ?? '', signal: controller.signal }))
          .then(
            (list) => ({ list }),
            (error: unknown) => ({ error }),
          ),
        timedOut,
      ])
      if (ctx.signal.aborted) throw ctx.signal.reason
      if (settled === 'timeout') return failed(`timed out after ${ms} ms`)
      if ('error' in settled) return failed('threw', settled.error)
      if (!Array.isArray(settled.list)) return failed('did not return an array')
      const clean: FormOption[] = []
      for (const item of settled.list as unknown[]) {
        const value = isPlainObject(item) ? item.value : undefined
        if (!isPlainObject(item) || !(value === null || OPTION_VALUE_TYPES.has(typeof value))) {
          return failed('returned an item that is not { value, title }', item)
        }
        clean.push({
          value: value as FormOption['value'],
          title: typeof item.title === 'string' ? item.title : String(value),
        })
      }
      const max = tm.limits.optionsItems
      return ok({ field: input.field, options: clean.slice(0, max), more: clean.length > max })
    } finally {
      clearTimeout(timer)
      ctx.signal.removeEventListener('abort', onAbort)
    }
  }

  const inputSchema: JsonSchema = {
    type: 'object',
    properties: {
      field: { type: 'string', enum: fields },
      query: { type: 'string', maxLength: 200 },
    },
    required: ['field'],
    additionalProperties: false,
  }
  return { fields, input: optionsInput(fields), inputSchema, run: lookupOptions }
}
