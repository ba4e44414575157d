import { deepFreeze } from '../base/results'
import type { ToolResult } from '../types'

/** An `invalid` result about the model's arguments themselves. */
export const invalidArgs = (path: string, message: string): ToolResult =>
  deepFreeze<ToolResult>({ status: 'invalid', issues: [{ path, message }] })

/**
 * The arguments of a model's tool call as an object: as given, or parsed from the JSON string
 * OpenAI sends. `undefined` when they are not a JSON object.
 */
export function parseArgs(args: unknown): Record<string, unknown> | undefined {
  let value = args
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value)
    } catch {
      return undefined
    }
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}
