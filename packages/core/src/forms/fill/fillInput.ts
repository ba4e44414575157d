import type { ResultIssue, StandardSchemaV1 } from '../../types'
import type { FileFieldRules } from '../values/fileValues'
import type { FormNode } from '../values/formSchema'
import type { FileSpec } from '../files/resolveFiles'
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

/**
 * The Standard Schema of a fill's input, checked against the form's declared paths before the
 * fill runs: unknown and prototype paths, array operations, value types and the node budget.
 * The output is a clean copy of the input; `planOf(output)` gives its writes.
 */
export function createFillInput(
  root: FormNode,
  limits: {
    nodes: () => number
    depth: () => number
    /** A wizard's step ids: the top-level keys of `values`. */
    steps?: readonly string[]
    /** Rules of the file fields, by path: their values are `{ ref }` or `{ url }`. */
    files?: ReadonlyMap<string, FileFieldRules>
  },
): {
  schema: StandardSchemaV1<unknown, FillInput>
  planOf(input: FillInput): FillPlan | undefined
  /** Whether the form has a list field anywhere (so `$append` / `$remove` apply). */
  hasArrays: boolean
} {
  const plans = new WeakMap<object, FillPlan>()
  const notDeclared = (depth: number) =>
    depth === 0 && limits.steps
      ? `Not a step of this form (its steps: ${limits.steps.join(', ')})`
      : 'Not a field of this form'

  const check = (
    input: unknown,
  ): { value: FillInput; issues?: undefined } | { issues: ResultIssue[] } => {
    const issues: ResultIssue[] = []
    const issue = (path: string, message: string) => {
      issues.push({ path, message })
      if (issues.length >= MAX_ISSUES) throw new Stop()
    }
    if (!isPlainObject(input)) {
      return { issues: [{ path: '', message: 'Expected an object { values, overwrite? }' }] }
    }
    for (const key of Object.keys(input)) {
      if (key !== 'values' && key !== 'overwrite')
        issues.push({ path: key, message: 'Unknown key' })
    }
    if (input.overwrite !== undefined && typeof input.overwrite !== 'boolean') {
      issues.push({ path: 'overwrite', message: 'Expected a boolean' })
    }
    if (!isPlainObject(input.values)) {
      issues.push({ path: 'values', message: 'Expected an object of fields to set' })
      return { issues }
    }
    const maxNodes = limits.nodes()
    const maxDepth = limits.depth()
    let nodes = 0
    const writes: FillWrite[] = []

    /** Counts a node; false (after one issue) once the budget is spent. */
    const spend = (): boolean => {
      nodes++
      if (nodes > maxNodes) {
        issues.push({
          path: 'values',
          message: `Too large: a fill takes at most ${maxNodes} values`,
        })
        throw new Stop()
      }
      return true
    }

    /** A copy of a whole value (an array item, a field's value), checked against `node`. */
    const copyWhole = (
      value: unknown,
      node: FormNode,
      inputPath: string,
      depth: number,
    ): unknown => {
      spend()
      if (depth > maxDepth) {
        issue(inputPath, 'Too deeply nested')
        return undefined
      }
      if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
      if (value === undefined) return undefined
      if (typeof value === 'number') {
        if (!Number.isFinite(value)) issue(inputPath, UNSUPPORTED)
        return value
      }
      if (value instanceof Date) {
        if (Number.isNaN(value.getTime())) issue(inputPath, 'Invalid date')
        return new Date(value.getTime())
      }
      if (Array.isArray(value)) {
        const items = node.kind === 'array' ? node.items : ANY_NODE
        return value.map((item, i) => copyWhole(item, items, joinPath(inputPath, i), depth + 1))
      }
      if (!isPlainObject(value)) {
        issue(inputPath, UNSUPPORTED)
        return undefined
      }
      const out: Record<string, unknown> = {}
      for (const key of Object.keys(value)) {
        const at = joinPath(inputPath, key)
        if (!keyAllowed(key, at)) continue
        let child: FormNode = ANY_NODE
        if (node.kind === 'object') {
          const declared = node.props.get(key) ?? node.rest
          if (!declared) {
            issue(at, 'Not a field of this form')
            continue
          }
          child = declared
        }
        defineOwn(out, key, copyWhole(value[key], child, at, depth + 1))
      }
      return out
    }

    const keyAllowed = (key: string, at: string): boolean => {
      if (FORBIDDEN_SEGMENTS.has(key)) {
        issue(at, `"${key}" is not allowed in a path`)
        return false
      }
      if (key === '' || key.includes('.')) {
        issue(at, 'Not a field of this form')
        return false
      }
      return true
    }

    /** Walks a partial object against the form's tree, collecting writes. */
    const walk = (
      value: unknown,
      node: FormNode,
      segments: string[],
      inputPath: string,
      depth: number,
    ): unknown => {
      if (value === undefined) return undefined
      const path = segments.join('.')
      if (depth > maxDepth) {
        spend()
        issue(inputPath, 'Too deeply nested')
        return undefined
      }
      const rules = depth > 0 ? limits.files?.get(path) : undefined
      if (rules) return fileWrite(value, rules, path, segments, inputPath)
      if (node.kind === 'object') {
        if (value === null) {
          spend()
          clear(node, segments)
          return null
        }
        if (isPlainObject(value)) {
          spend()
          const out: Record<string, unknown> = {}
          for (const key of Object.keys(value)) {
            const at = joinPath(inputPath, key)
            if (!keyAllowed(key, at)) continue
            if (key.startsWith('$')) {
              issue(at, `"${key}" only applies to arrays`)
              continue
            }
            const child = node.props.get(key) ?? node.rest
            if (!child) {
              issue(at, notDeclared(depth))
              continue
            }
            const copied = walk(value[key], child, [...segments, key], at, depth + 1)
            if (value[key] !== undefined) defineOwn(out, key, copied)
          }
          return out
        }
        if (depth === 1 && limits.steps) {
          spend()
          issue(inputPath, "Expected an object of the step's fields")
          return undefined
        }
        // A non-object for an object field: written whole, the form's schema reports the type.
        const copied = copyWhole(value, node, inputPath, depth)
        writes.push({ op: 'set', path, segments, value: copied })
        return copied
      }
      if (node.kind === 'array') {
        if (value === null) {
          spend()
          writes.push({ op: 'set', path, segments, value: [] })
          return null
        }
        if (Array.isArray(value)) {
          const copied = copyWhole(value, node, inputPath, depth) as unknown[]
          writes.push({ op: 'set', path, segments, value: copied })
          return copied
        }
        if (isPlainObject(value)) {
          spend()
          const keys = Object.keys(value)
          if (keys.length !== 1 || (keys[0] !== '$append' && keys[0] !== '$remove')) {
            issue(inputPath, ARRAY_OPS)
            return undefined
          }
          const at = joinPath(inputPath, keys[0])
          if (keys[0] === '$append') {
            if (!Array.isArray(value.$append)) {
              issue(at, 'Expected an array of items to append')
              return undefined
            }
            const items = copyWhole(value.$append, node, at, depth + 1) as unknown[]
            writes.push({ op: 'append', path, segments, items })
            return { $append: items }
          }
          const indices = value.$remove
          if (!Array.isArray(indices)) {
            issue(at, 'Expected a list of item indexes (integers from 0)')
            return undefined
          }
          const clean = new Set<number>()
          indices.forEach((index, i) => {
            spend()
            if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) {
              issue(joinPath(at, i), 'Expected an item index (an integer from 0)')
            } else clean.add(index)
          })
          writes.push({ op: 'remove', path, segments, indices: [...clean] })
          return { $remove: [...clean] }
        }
        issue(inputPath, ARRAY_OPS)
        return undefined
      }
      if (value === null) {
        spend()
        writes.push({ op: 'set', path, segments, value: node.empty })
        return null
      }
      const copied = copyWhole(value, node, inputPath, depth)
      writes.push({ op: 'set', path, segments, value: copied })
      return copied
    }

    /** A file field's value: `null` clears it; else `{ ref }` / `{ url }`, or a list of them. */
    const fileWrite = (
      value: unknown,
      rules: FileFieldRules,
      path: string,
      segments: string[],
      inputPath: string,
    ): unknown => {
      spend()
      if (value === null) {
        writes.push({
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
        spend()
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
          issue(at, FILE_SHAPE)
          return
        }
        specs.push(key === 'ref' ? { ref: text } : { url: text })
      })
      writes.push({ op: 'set', path, segments, value: null, file: { rules, specs, list } })
      return list ? specs : specs[0]
    }

    /** `null` on an object clears each declared field, so every input shows the cleared value. */
    const clear = (node: FormNode, segments: string[]) => {
      if (node.kind === 'object' && node.props.size > 0) {
        for (const [key, child] of node.props) clear(child, [...segments, key])
      } else if (node.kind === 'array') {
        writes.push({ op: 'set', path: segments.join('.'), segments, value: [] })
      } else {
        writes.push({ op: 'set', path: segments.join('.'), segments, value: node.empty })
      }
    }

    let values: Record<string, unknown> = {}
    try {
      values = walk(input.values, root, [], 'values', 0) as Record<string, unknown>
    } catch (e) {
      if (!(e instanceof Stop)) throw e
    }
    if (issues.length > 0) return { issues }
    const value: FillInput = { values }
    if (input.overwrite !== undefined) value.overwrite = input.overwrite as boolean
    plans.set(value, { writes, overwrite: value.overwrite === true })
    return { value }
  }

  const schema: StandardSchemaV1<unknown, FillInput> = {
    '~standard': {
      version: 1,
      vendor: 'toolmark',
      validate(input) {
        const checked = check(input)
        if (!checked.issues) return checked
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
