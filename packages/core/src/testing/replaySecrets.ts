import type { RecordedLine } from './recordSession'
import type { ParsedLine } from './parseRecording'
import { MissingSecretError } from './replayError'

/** A recorded input value that was redacted, which a replay needs given again. */
export interface WithheldField {
  /** The tool of the recorded call. */
  tool: string
  /** The input path (`password`, `cards.0.cvc`). */
  path: string
  /** The recording's call id (`c3`). */
  callId: string
  /** The line of the recording (1-based). */
  line: number
}

/**
 * `replaySession`'s `secrets`: values by input path, or a function of the field (`undefined`
 * when it has none).
 */
export type ReplaySecrets =
  Readonly<Record<string, unknown>> | ((field: WithheldField) => unknown | Promise<unknown>)

type CallLine = Extract<RecordedLine, { type: 'call' }>

/**
 * Before anything runs: with values given by path (or none at all), every withheld field must
 * have one, so a replay that could not finish does not start. A function is asked at its call.
 */
export function checkSecrets(entries: readonly ParsedLine[], secrets: ReplaySecrets | undefined) {
  if (typeof secrets === 'function') return
  for (const { line, entry } of entries) {
    if (entry.type !== 'call') continue
    for (const path of entry.withheld ?? []) {
      if (!secrets || !Object.hasOwn(secrets, path) || secrets[path] === undefined) {
        throw new MissingSecretError(line, entry.tool, entry.callId, path)
      }
    }
  }
}

/** Sets a value at a dot path of a JSON copy, as an own data property (never a prototype write). */
function setAt(target: unknown, path: string, value: unknown): void {
  const keys = path.split('.')
  let at = target as Record<string, unknown>
  for (const key of keys.slice(0, -1)) at = at[key] as Record<string, unknown>
  Object.defineProperty(at, keys[keys.length - 1], {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  })
}

/** The recorded input with every withheld value given again from `secrets`. */
export async function inputWithSecrets(
  line: number,
  entry: CallLine,
  secrets: ReplaySecrets | undefined,
): Promise<unknown> {
  const withheld = entry.withheld ?? []
  if (withheld.length === 0) return entry.input
  // The parsed line stays as read: the copy gets the values.
  const input: unknown = JSON.parse(JSON.stringify(entry.input))
  for (const path of withheld) {
    const field: WithheldField = { tool: entry.tool, path, callId: entry.callId, line }
    const value =
      typeof secrets === 'function'
        ? await secrets(field)
        : secrets && Object.hasOwn(secrets, path)
          ? secrets[path]
          : undefined
    if (value === undefined) throw new MissingSecretError(line, entry.tool, entry.callId, path)
    setAt(input, path, value)
  }
  return input
}
