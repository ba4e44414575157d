/**
 * Turns a confirmation's input into rows a person can read: one row per leaf, named by the
 * entry's label for that path or by the path made readable, with the changes merged in.
 * React-free.
 */

import { REDACTED, type FieldChange } from '@toolmark/core'
import { isFileDescription } from '@toolmark/core/forms'

/** One line of the values table. */
export interface ValueRow {
  /** Dot path of the value (`requester.email`, `items.0.name`); `''` for an input that is a value. */
  path: string
  /** What the person reads: the entry's label, else the path made readable. */
  label: string
  /** The value sent, on a row without a change. */
  value?: unknown
  /** The change at this path (or above it); the row then shows before → after. */
  change?: FieldChange
  /** An agent wrote this value (at this path or above it). */
  agent?: boolean
}

/** Nesting below this depth is shown as one value rather than more rows. */
const MAX_DEPTH = 12

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}

const isScalar = (value: unknown) => value === null || typeof value !== 'object'

/** Whether a value reads as "no value" (a dash): absent, null, `''`, or an empty list or object. */
export const isEmptyShown = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && value !== null && Object.keys(value).length === 0)

/**
 * The changes a person can see: a change whose sides both read as "no value" ("— → —") changes
 * nothing and is left out, whoever built the list (a form's submit, or an app's `ctx.confirm`).
 */
export function visibleChanges(
  changes: readonly FieldChange[] | undefined,
): FieldChange[] | undefined {
  const shown = changes?.filter(
    (change) => !(isEmptyShown(change.before) && isEmptyShown(change.after)),
  )
  return shown && shown.length > 0 ? shown : undefined
}

/** A letter, a digit or `_`: what a value found in the summary must not run on into. */
const WORD = /[\p{L}\p{N}_]/u

/**
 * Whether `text` holds `value` as a whole: not inside a longer word or number ("#7" holds 7;
 * "#17", "7b" and "7.5" do not).
 */
function holdsWhole(text: string, value: string): boolean {
  for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
    const before = text.slice(0, at)
    const after = text.slice(at + value.length)
    if (WORD.test(before.slice(-1)) || /\p{N}[.,]$/u.test(before)) continue
    if (WORD.test(after.charAt(0)) || /^[.,]\p{N}/u.test(after)) continue
    return true
  }
  return false
}

/**
 * Whether the summary already says everything a values table would: the input is one value, a
 * number or a text, that no agent filled in and that the summary holds whole ("Close ticket #7"
 * for `{ id: 7 }`). Such a table only repeats the summary ("Id | 7"), so the dialog leaves it
 * out. A secret, a list, a file, an empty value or two values or more keep their table: what
 * each is, or that it is there at all, is not in the summary.
 */
export function summarySaysAll(rows: readonly ValueRow[], summary: string): boolean {
  if (rows.length !== 1) return false
  const [row] = rows
  if (row.change || row.agent) return false
  const { value } = row
  const text =
    typeof value === 'number' && Number.isFinite(value)
      ? String(value)
      : typeof value === 'string' && value.trim() !== '' && value !== REDACTED
        ? value
        : undefined
  return text !== undefined && holdsWhole(summary, text)
}

/**
 * The leaves of a value as `[path, value]` pairs, in the input's own order. Objects become dot
 * paths; an array of plain values stays one leaf (read as a list), other arrays use their
 * indexes (`items.0.name`). Empty objects and arrays are leaves, so they show as "no value".
 */
export function inputLeaves(input: unknown): [path: string, value: unknown][] {
  const leaves: [string, unknown][] = []
  const seen = new Set<object>()
  const walk = (value: unknown, path: string, depth: number) => {
    const container = isPlainObject(value) || Array.isArray(value)
    // A file (or a list of files) is one value: name, size and type read together.
    const files =
      isFileDescription(value) || (Array.isArray(value) && value.every(isFileDescription))
    if (!container || files || depth >= MAX_DEPTH || seen.has(value)) {
      leaves.push([path, value])
      return
    }
    const keys = Array.isArray(value) ? value.map((_, i) => String(i)) : Object.keys(value)
    if (keys.length === 0 || (Array.isArray(value) && value.every(isScalar))) {
      leaves.push([path, value])
      return
    }
    seen.add(value)
    const record = value as Record<string, unknown>
    for (const key of keys) walk(record[key], path === '' ? key : `${path}.${key}`, depth + 1)
    seen.delete(value)
  }
  if (input === undefined || (isPlainObject(input) && Object.keys(input).length === 0)) return []
  walk(input, '', 0)
  return leaves
}

const words = (segment: string) =>
  segment
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase()

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/**
 * A path made readable for people: `requester.dueDate` → "Requester › Due date",
 * `items.0.name` → "Items 1 › Name" (positions count from 1).
 */
export function readablePath(path: string): string {
  const parts: string[] = []
  for (const segment of path.split('.')) {
    if (/^\d+$/.test(segment) && parts.length > 0) {
      parts[parts.length - 1] += ` ${Number(segment) + 1}`
    } else {
      parts.push(capitalize(words(segment)) || segment)
    }
  }
  return parts.join(' › ')
}

/** Whether `change` is at `path` or above it (a change of `address` covers `address.city`). */
const covers = (change: FieldChange, path: string) =>
  change.path === path || path.startsWith(`${change.path}.`) || change.path === ''

/**
 * The rows of a confirmation: every leaf of the input in order, each marked with the change
 * that covers it (the change's row takes the place of the leaves it covers), then the changes
 * at paths the input does not have. Rows an agent wrote (`agentFilled`, the entry's paths) are
 * marked.
 */
export function valueRows(
  input: unknown,
  changes: readonly FieldChange[] | undefined,
  labels: Readonly<Record<string, string>> | undefined,
  agentFilled?: readonly string[],
): ValueRow[] {
  const rows = placeRows(input, changes, labels)
  if (!agentFilled || agentFilled.length === 0) return rows
  // A row is the agent's when its path lies at or below a path the agent wrote, or contains one.
  const isAgents = (path: string) =>
    agentFilled.some(
      (p) => p === path || path.startsWith(`${p}.`) || p.startsWith(`${path}.`) || path === '',
    )
  return rows.map((row) => (isAgents(row.path) ? { ...row, agent: true } : row))
}

function placeRows(
  input: unknown,
  changes: readonly FieldChange[] | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): ValueRow[] {
  const name = (path: string) => labels?.[path] || readablePath(path)
  const rows: ValueRow[] = []
  const placed = new Set<FieldChange>()
  for (const [path, value] of inputLeaves(input)) {
    const change = changes?.find((c) => covers(c, path))
    if (!change) rows.push({ path, label: name(path), value })
    else if (!placed.has(change)) {
      placed.add(change)
      rows.push({ path: change.path, label: name(change.path), change })
    }
  }
  for (const change of changes ?? []) {
    if (!placed.has(change)) rows.push({ path: change.path, label: name(change.path), change })
  }
  return rows
}
