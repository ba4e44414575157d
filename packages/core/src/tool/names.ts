import { shortHash } from '../base/ids'

const SEGMENT = /^[A-Za-z0-9_-]+$/
/** Longest full tool name. */
export const MAX_NAME = 128
/** Longest `llmName` (the limit of MCP and most model APIs). */
export const MAX_LLM_NAME = 64

/** Whether `name` is one valid segment (`[A-Za-z0-9_-]+`). */
export function isSegment(name: unknown): name is string {
  return typeof name === 'string' && SEGMENT.test(name)
}

/** Whether `name` is a valid full tool name: segments joined by `.`, at most 128 characters. */
export function isToolName(name: unknown): name is string {
  return (
    typeof name === 'string' &&
    name.length > 0 &&
    name.length <= MAX_NAME &&
    name.split('.').every((s) => SEGMENT.test(s))
  )
}

/** `name` for surfaces that forbid dots: `.` → `__`, cut to 64 characters with a short hash. */
export function toLlmName(name: string): string {
  const flat = name.split('.').join('__')
  if (flat.length <= MAX_LLM_NAME) return flat
  return `${flat.slice(0, MAX_LLM_NAME - 9)}_${shortHash(name)}`
}

/** Joins a scope path and a local name. */
export function joinName(path: string, name: string): string {
  return path ? `${path}.${name}` : name
}

/** A safe label for anything passed where a tool name was expected. */
export function nameLabel(name: unknown): string {
  if (typeof name === 'string') return name.slice(0, MAX_NAME * 2)
  return `[${name === null ? 'null' : typeof name}]`
}
