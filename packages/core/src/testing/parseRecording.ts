import { isCaller, isObject } from '../base/guards'
import { REDACTED } from '../redaction/redact'
import { RECORDING_VERSION, type RecordedLine } from './recordSession'
import { ReplayError } from './replayError'

/** One line of a recording, checked, with its 1-based line number. */
export interface ParsedLine {
  line: number
  entry: RecordedLine
}

const DECISIONS = ['approve', 'reject', 'answer', 'expired', 'withdrawn']

/** The value at a dot path of a JSON value, through own properties only. */
export function valueAt(value: unknown, path: string): unknown {
  let at: unknown = value
  for (const key of path.split('.')) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return undefined
    at = (at as Record<string, unknown>)[key]
  }
  return at
}

/** Every path of a JSON value holding the redaction mask: what a version 1 recording withheld. */
function maskedPaths(value: unknown, path = '', out: string[] = []): string[] {
  if (value === REDACTED && path !== '') out.push(path)
  else if (Array.isArray(value))
    value.forEach((v, i) => maskedPaths(v, `${path}${path && '.'}${i}`, out))
  else if (isObject(value)) {
    for (const [key, v] of Object.entries(value)) maskedPaths(v, `${path}${path && '.'}${key}`, out)
  }
  return out
}

/**
 * Checks a `call` line's `withheld` paths: each names a value of its input that was redacted when
 * recorded. A version 1 recording did not mark them, so there every masked value counts as one.
 */
function checkWithheld(
  value: Record<string, unknown>,
  version: number,
  fail: (what: string) => never,
) {
  if (version === 1) {
    const masked = maskedPaths(value.input)
    if (masked.length > 0) value.withheld = masked
    return
  }
  if (value.withheld === undefined) return
  if (!Array.isArray(value.withheld) || !value.withheld.every((p) => typeof p === 'string')) {
    fail('"withheld" is not a list of input paths')
  }
  for (const path of value.withheld as string[]) {
    if (valueAt(value.input, path) !== REDACTED) {
      fail(`"withheld" names "${path}", which is not a redacted value of the input`)
    }
  }
}

/** Checks one parsed line's fields by its type. */
function checkLine(value: Record<string, unknown>, version: number, fail: (what: string) => never) {
  const need = (key: string, ok: boolean) => {
    if (!ok) fail(`a "${String(value.type)}" line needs "${key}"`)
  }
  switch (value.type) {
    case 'session':
      break
    case 'call':
      need('callId', typeof value.callId === 'string')
      need('tool', typeof value.tool === 'string')
      need('caller', isCaller(value.caller))
      checkWithheld(value, version, fail)
      break
    case 'result':
      need('callId', typeof value.callId === 'string')
      need('result', isObject(value.result) && typeof value.result.status === 'string')
      break
    case 'confirm':
      need('confirmId', typeof value.confirmId === 'string')
      need('callId', typeof value.callId === 'string')
      break
    case 'answer':
      need('confirmId', typeof value.confirmId === 'string')
      need('decision', DECISIONS.includes(value.decision as string))
      break
    default:
      fail(`unknown line type ${JSON.stringify(value.type)}`)
  }
}

/**
 * Parses and checks every line of a recording first, so a broken recording fails before anything
 * runs. Reads this format version and version 1 (which did not mark withheld values).
 */
export function parseRecording(lines: string | readonly string[]): ParsedLine[] {
  const raw = typeof lines === 'string' ? lines.split('\n') : [...lines]
  const out: ParsedLine[] = []
  // Lines before a session line are read as this version's.
  let version = RECORDING_VERSION
  raw.forEach((text, i) => {
    const line = i + 1
    const fail = (what: string): never => {
      throw new ReplayError(
        `Recording line ${line}: ${what}. Record the session again with recordSession(tm) and save recording.text() unchanged.`,
        line,
      )
    }
    if (typeof text !== 'string') fail('not a string')
    if (text.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      fail('not JSON')
    }
    if (!isObject(value)) return fail('not a JSON object')
    if (value.type === 'session') {
      if (value.version !== RECORDING_VERSION && value.version !== 1) {
        fail(
          `recorded in format version ${String(value.version)}, this replays versions 1 and ${RECORDING_VERSION}`,
        )
      }
      if (!Array.isArray(value.tools)) fail('a "session" line needs "tools"')
      version = value.version as number
    }
    checkLine(value, version, fail)
    out.push({ line, entry: value as unknown as RecordedLine })
  })
  return out
}
