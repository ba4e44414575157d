import type { ResultIssue, StandardSchemaV1 } from '../../types'
import type { FileFieldRules, FileSpec } from '../values/fileValues'
import type { FormNode } from '../values/formSchema'
import { FORBIDDEN_SEGMENTS, defineOwn, isPlainObject, joinPath } from '../values/paths'

/** One write a fill asks for, at a form path. */
export type FillWrite =
  | {
      readonly op: 'set'
      readonly path: string
      readonly segments: string[]
      readonly value: unknown
      /** A file field's write: the files to resolve before anything is written (none clears). */
      readonly file?: { readonly rules: FileFieldRules; readonly specs: FileSpec[]; list: boolean }
    }
  | {
      readonly op: 'append'
      readonly path: string
      readonly segments: string[]
      readonly items: unknown[]
    }
  | {
      readonly op: 'remove'
      readonly path: string
      readonly segments: string[]
      readonly indices: number[]
    }

/** The input of `<form>.fill`. */
export interface FillInput {
  /** Fields to set, as a partial object (`null` clears; absent leaves a field alone). */
  values: Record<string, unknown>
  /** Also replace fields the user edited. Default false. */
  overwrite?: boolean
}

/** A checked fill: what to write, in input order. */
export interface FillPlan {
  readonly writes: FillWrite[]
  readonly overwrite: boolean
}

/** At most this many issues are reported for one input; the rest add nothing an agent can use. */
const MAX_ISSUES = 50

const UNSUPPORTED =
  'Unsupported value: use JSON values (strings, numbers, booleans, null, arrays and objects)'
const FILE_SHAPE =
  'Expected a file: { "ref": "…" } or { "url": "…" } (a list of them for a multiple field)'
const ARRAY_OPS = 'Use an array, { "$append": [...] } or { "$remove": [index, ...] }'

class Stop {}

/** Bounds of a fill's input and what shapes it: the tools' limits, a wizard's steps, file fields. */
export interface FillInputLimits {
  nodes: () => number
  depth: () => number
  /** A wizard's step ids: the top-level keys of `values`. */
  steps?: readonly string[]
  /** Rules of the file fields, by path: their values are `{ ref }` or `{ url }`. */
  files?: ReadonlyMap<string, FileFieldRules>
}

/** One input's check under way: the issues and writes found so far, and the nodes spent. */
interface Walk {
  readonly issues: ResultIssue[]
  readonly writes: FillWrite[]
  readonly maxNodes: number
  readonly maxDepth: number
  readonly limits: FillInputLimits
  nodes: number
}

/** Records an issue; stops the check once there are enough to act on. */
function issue(w: Walk, path: string, message: string) {
  w.issues.push({ path, message })
  if (w.issues.length >= MAX_ISSUES) throw new Stop()
}

/** Counts a node; stops the check (after one issue) once the budget is spent. */
function spend(w: Walk) {
  w.nodes++
  if (w.nodes > w.maxNodes) {
    w.issues.push({
      path: 'values',
      message: `Too large: a fill takes at most ${w.maxNodes} values`,
    })
    throw new Stop()
  }
}

/** Why a key is not of the form: at the top of a wizard, the steps it has. */
const notDeclared = (w: Walk, depth: number) =>
  depth === 0 && w.limits.steps
    ? `Not a step of this form (its steps: ${w.limits.steps.join(', ')})`
    : 'Not a field of this form'

/** Whether a key may be a path segment: never a prototype's, empty or dotted. */
function keyAllowed(w: Walk, key: string, at: string): boolean {
  if (FORBIDDEN_SEGMENTS.has(key)) {
    issue(w, at, `"${key}" is not allowed in a path`)
    return false
  }
  if (key === '' || key.includes('.')) {
    issue(w, at, 'Not a field of this form')
    return false
  }
  return true
}

/** A copy of a whole value (an array item, a field's value), checked against `node`. */
function copyWhole(
  w: Walk,
  value: unknown,
  node: FormNode,
  inputPath: string,
  depth: number,
): unknown {
  spend(w)
  if (depth > w.maxDepth) {
    issue(w, inputPath, 'Too deeply nested')
    return undefined
  }
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
  if (value === undefined) return undefined
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) issue(w, inputPath, UNSUPPORTED)
    return value
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) issue(w, inputPath, 'Invalid date')
    return new Date(value.getTime())
  }
  if (Array.isArray(value)) {
    const items = node.kind === 'array' ? node.items : ANY_NODE
    return value.map((item, i) => copyWhole(w, item, items, joinPath(inputPath, i), depth + 1))
  }
  if (!isPlainObject(value)) {
    issue(w, inputPath, UNSUPPORTED)
    return undefined
  }
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    const at = joinPath(inputPath, key)
    if (!keyAllowed(w, key, at)) continue
    let child: FormNode = ANY_NODE
    if (node.kind === 'object') {
      const declared = node.props.get(key) ?? node.rest
      if (!declared) {
        issue(w, at, 'Not a field of this form')
        continue
      }
      child = declared
    }
    defineOwn(out, key, copyWhole(w, value[key], child, at, depth + 1))
  }
  return out
}

/** Walks a partial object against the form's tree, collecting writes; returns the clean copy. */
function walk(
  w: Walk,
  value: unknown,
  node: FormNode,
  segments: string[],
  inputPath: string,
  depth: number,
): unknown {
  if (value === undefined) return undefined
  const path = segments.join('.')
  if (depth > w.maxDepth) {
    spend(w)
    issue(w, inputPath, 'Too deeply nested')
    return undefined
  }
  const rules = depth > 0 ? w.limits.files?.get(path) : undefined
  if (rules) return fileWrite(w, value, rules, path, segments, inputPath)
  if (node.kind === 'object') return walkObject(w, value, node, segments, inputPath, depth)
  if (node.kind === 'array') return walkArray(w, value, node, segments, inputPath, depth)
  if (value === null) {
    spend(w)
    w.writes.push({ op: 'set', path, segments, value: node.empty })
    return null
  }
  const copied = copyWhole(w, value, node, inputPath, depth)
  w.writes.push({ op: 'set', path, segments, value: copied })
  return copied
}

/** The value for an object field: `null` clears it, an object is walked key by key. */
function walkObject(
  w: Walk,
  value: unknown,
  node: Extract<FormNode, { kind: 'object' }>,
  segments: string[],
  inputPath: string,
  depth: number,
): unknown {
  if (value === null) {
    spend(w)
    clear(w, node, segments)
    return null
  }
  if (isPlainObject(value)) {
    spend(w)
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value)) {
      const at = joinPath(inputPath, key)
      if (!keyAllowed(w, key, at)) continue
      if (key.startsWith('$')) {
        issue(w, at, `"${key}" only applies to arrays`)
        continue
      }
      const child = node.props.get(key) ?? node.rest
      if (!child) {
        issue(w, at, notDeclared(w, depth))
        continue
      }
      const copied = walk(w, value[key], child, [...segments, key], at, depth + 1)
      if (value[key] !== undefined) defineOwn(out, key, copied)
    }
    return out
  }
  if (depth === 1 && w.limits.steps) {
    spend(w)
    issue(w, inputPath, "Expected an object of the step's fields")
    return undefined
  }
  // A non-object for an object field: written whole, the form's schema reports the type.
  const path = segments.join('.')
  const copied = copyWhole(w, value, node, inputPath, depth)
  w.writes.push({ op: 'set', path, segments, value: copied })
  return copied
}

/** The value for a list field: `null` empties it, a list replaces it, else one list operation. */
function walkArray(
  w: Walk,
  value: unknown,
  node: Extract<FormNode, { kind: 'array' }>,
  segments: string[],
  inputPath: string,
  depth: number,
): unknown {
  const path = segments.join('.')
  if (value === null) {
    spend(w)
    w.writes.push({ op: 'set', path, segments, value: [] })
    return null
  }
  if (Array.isArray(value)) {
    const copied = copyWhole(w, value, node, inputPath, depth) as unknown[]
    w.writes.push({ op: 'set', path, segments, value: copied })
    return copied
  }
  if (!isPlainObject(value)) {
    issue(w, inputPath, ARRAY_OPS)
    return undefined
  }
  spend(w)
  const keys = Object.keys(value)
  if (keys.length !== 1 || (keys[0] !== '$append' && keys[0] !== '$remove')) {
    issue(w, inputPath, ARRAY_OPS)
    return undefined
  }
  const at = joinPath(inputPath, keys[0])
  if (keys[0] === '$append') {
    if (!Array.isArray(value.$append)) {
      issue(w, at, 'Expected an array of items to append')
      return undefined
    }
    const items = copyWhole(w, value.$append, node, at, depth + 1) as unknown[]
    w.writes.push({ op: 'append', path, segments, items })
    return { $append: items }
  }
  const indices = value.$remove
  if (!Array.isArray(indices)) {
    issue(w, at, 'Expected a list of item indexes (integers from 0)')
    return undefined
  }
  const clean = new Set<number>()
  indices.forEach((index, i) => {
    spend(w)
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) {
      issue(w, joinPath(at, i), 'Expected an item index (an integer from 0)')
    } else clean.add(index)
  })
  w.writes.push({ op: 'remove', path, segments, indices: [...clean] })
  return { $remove: [...clean] }
}

/** A file field's value: `null` clears it; else `{ ref }` / `{ url }`, or a list of them. */
function fileWrite(
  w: Walk,
  value: unknown,
  rules: FileFieldRules,
  path: string,
  segments: string[],
  inputPath: string,
): unknown {
  spend(w)
  if (value === null) {
    w.writes.push({
      op: 'set',
      path,
      segments,
      value: null,
      file: { rules, specs: [], list: false },
    })
    return null
  }
  const list = Array.isArray(value)
  const items: unknown[] = list ? (value as unknown[]) : [value]
  const specs: FileSpec[] = []
  items.forEach((item, i) => {
    spend(w)
    const at = list ? joinPath(inputPath, i) : inputPath
    const keys = isPlainObject(item) ? Object.keys(item) : []
    const key = keys.length === 1 ? keys[0] : undefined
    const text = key ? (item as Record<string, unknown>)[key] : undefined
    if (
      (key !== 'ref' && key !== 'url') ||
      typeof text !== 'string' ||
      text === '' ||
      text.length > 4096
    ) {
      issue(w, at, FILE_SHAPE)
      return
    }
    specs.push(key === 'ref' ? { ref: text } : { url: text })
  })
  w.writes.push({ op: 'set', path, segments, value: null, file: { rules, specs, list } })
  return list ? specs : specs[0]
}

/** `null` on an object clears each declared field, so every input shows the cleared value. */
function clear(w: Walk, node: FormNode, segments: string[]) {
  if (node.kind === 'object' && node.props.size > 0) {
    for (const [key, child] of node.props) clear(w, child, [...segments, key])
  } else if (node.kind === 'array') {
    w.writes.push({ op: 'set', path: segments.join('.'), segments, value: [] })
  } else {
    w.writes.push({ op: 'set', path: segments.join('.'), segments, value: node.empty })
  }
}

/** Checks one fill input against the form's tree: its clean copy and plan, or its issues. */
function checkFill(
  root: FormNode,
  limits: FillInputLimits,
  input: unknown,
): { value: FillInput; plan: FillPlan; issues?: undefined } | { issues: ResultIssue[] } {
  const issues: ResultIssue[] = []
  if (!isPlainObject(input)) {
    return { issues: [{ path: '', message: 'Expected an object { values, overwrite? }' }] }
  }
  for (const key of Object.keys(input)) {
    if (key !== 'values' && key !== 'overwrite') issues.push({ path: key, message: 'Unknown key' })
  }
  if (input.overwrite !== undefined && typeof input.overwrite !== 'boolean') {
    issues.push({ path: 'overwrite', message: 'Expected a boolean' })
  }
  if (!isPlainObject(input.values)) {
    issues.push({ path: 'values', message: 'Expected an object of fields to set' })
    return { issues }
  }
  const w: Walk = {
    issues,
    writes: [],
    maxNodes: limits.nodes(),
    maxDepth: limits.depth(),
    limits,
    nodes: 0,
  }
  let values: Record<string, unknown> = {}
  try {
    values = walk(w, input.values, root, [], 'values', 0) as Record<string, unknown>
  } catch (e) {
    if (!(e instanceof Stop)) throw e
  }
  if (issues.length > 0) return { issues }
  const value: FillInput = { values }
  if (input.overwrite !== undefined) value.overwrite = input.overwrite as boolean
  return { value, plan: { writes: w.writes, overwrite: value.overwrite === true } }
}

/**
 * The Standard Schema of a fill's input, checked against the form's declared paths before the
 * fill runs: unknown and prototype paths, array operations, value types and the node budget.
 * The output is a clean copy of the input; `planOf(output)` gives its writes.
 */
export function createFillInput(
  root: FormNode,
  limits: FillInputLimits,
): {
  schema: StandardSchemaV1<unknown, FillInput>
  planOf(input: FillInput): FillPlan | undefined
  /** Whether the form has a list field anywhere (so `$append` / `$remove` apply). */
  hasArrays: boolean
} {
  const plans = new WeakMap<object, FillPlan>()
  const schema: StandardSchemaV1<unknown, FillInput> = {
    '~standard': {
      version: 1,
      vendor: 'toolmark',
      validate(input) {
        const checked = checkFill(root, limits, input)
        if (!checked.issues) {
          plans.set(checked.value, checked.plan)
          return { value: checked.value }
        }
        // Standard Schema paths are segment lists; ours are dot paths of plain keys.
        return {
          issues: checked.issues.map((i) => ({
            message: i.message,
            path: i.path === '' ? [] : i.path.split('.'),
          })),
        }
      },
    },
  }
  return { schema, planOf: (input) => plans.get(input), hasArrays: hasArrays(root) }
}

function hasArrays(node: FormNode, depth = 0, seen = new Set<FormNode>()): boolean {
  if (depth > 64 || seen.has(node)) return false
  seen.add(node)
  if (node.kind === 'array') return true
  if (node.kind !== 'object') return false
  if (node.rest && hasArrays(node.rest, depth + 1, seen)) return true
  for (const child of node.props.values()) if (hasArrays(child, depth + 1, seen)) return true
  return false
}

const ANY_NODE: FormNode = Object.freeze({ kind: 'value', empty: undefined })
