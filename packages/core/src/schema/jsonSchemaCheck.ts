import { isObject, joinPath, own } from '../base/guards'
import type { JsonSchema, ResultIssue } from '../types'
import {
  hasOwn,
  finite,
  count,
  jsonType,
  KNOWN_TYPES,
  hasType,
  show,
  codePoints,
  isMultiple,
  TYPE_NAMES,
} from './jsonValues'

/** Options of `jsonSchemaCheck`. */
export interface JsonSchemaCheckOptions {
  /**
   * The document that `$ref`s resolve against, when `schema` is a part of it.
   * Default: `schema` itself.
   */
  root?: JsonSchema | boolean
  /** Deepest value accepted; deeper values get an issue at the first path past it. Default 64. */
  maxDepth?: number
  /**
   * Work allowed for one check, in steps: each (schema node, value) visit, each `enum` or
   * `const` comparison and each value node it compares, each `required` entry, each property,
   * each issue made or copied, and long strings by their length. A check that needs more (a huge
   * value, a schema whose `anyOf`s multiply over a costly leaf) fails with one issue at the root.
   * Default 200 000; `CLIENT_SCHEMA_CHECK` uses a smaller budget.
   */
  maxSteps?: number
  /** Most issues reported, and most kept inside one `anyOf`/`oneOf`/`not` branch. Default 50. */
  maxIssues?: number
  /**
   * `false` ignores `pattern` and `patternProperties` wherever the check reaches them (through
   * any `$ref` or branch), so no regular expression from the schema ever runs; a property a
   * pattern would have matched is then not treated as additional. Default `true`.
   */
  patterns?: boolean
  /**
   * Where a `$ref` may point: `'document'` (default) any JSON pointer inside the document;
   * `'definitions'` only the root (`#`) and one entry of `$defs` or `definitions`
   * (`#/$defs/name`), so a hostile schema cannot turn data (`enum`, `default`, an unknown
   * keyword) into a schema. Any other `$ref` is ignored.
   */
  refs?: 'document' | 'definitions'
}

/**
 * The options for a schema a client wrote (a chat request's tool list, a page's manifest read on
 * a server): no regular expression runs, `$ref`s reach only definitions, and the budget is small
 * enough that the worst schema within the posted-list bounds checks any value in milliseconds.
 */
export const CLIENT_SCHEMA_CHECK: Readonly<
  Required<Pick<JsonSchemaCheckOptions, 'maxSteps' | 'maxIssues' | 'patterns' | 'refs'>>
> = Object.freeze({ maxSteps: 20_000, maxIssues: 20, patterns: false, refs: 'definitions' })

/**
 * Checks one value; an empty array means it is valid. Never throws. `lastSteps` is the work the
 * latest check spent, in the steps `maxSteps` bounds.
 */
export interface JsonSchemaCheck {
  (value: unknown): ResultIssue[]
  readonly lastSteps: number
}

type Node = Record<string, unknown>

/** Unwinds the whole check when a bound is hit. */
class OutOfBounds {
  constructor(readonly message: string) {}
}

const MAX_PATTERN_LENGTH = 2_000
const MAX_RECURSION = 1_024

/**
 * Compiles a JSON Schema (the draft 2020-12 subset tool schemas use) into a checker that
 * returns `{ path, message }` issues with dot paths (`''` for the root, `items.2.name`), like
 * every other validation in Toolmark. No dependencies; schemas and values are treated as
 * hostile: it never throws, reads only own properties, and stops at `maxDepth`, `maxSteps`
 * and `maxIssues`.
 *
 * Checked: `type` (a name or a list), `enum`, `const`, `properties`, `required`,
 * `additionalProperties` (boolean or schema), `patternProperties`, `propertyNames`,
 * `minProperties`/`maxProperties`, `items`, `prefixItems`, `minItems`/`maxItems`,
 * `uniqueItems`, `anyOf`, `oneOf`, `allOf`, `not`, `minimum`/`maximum`,
 * `exclusiveMinimum`/`exclusiveMaximum`, `multipleOf`, `minLength`/`maxLength`, `pattern`,
 * boolean schemas, and `$ref` to `#` or a JSON pointer inside the document (`#/$defs/x`).
 * Everything else (`format`, `if`, `contains`, unknown keywords, a `$ref` elsewhere, a
 * `pattern` that does not compile or is longer than 2 000 characters) is ignored: the verdict
 * can only be looser than the schema, never stricter. For the same reason `minLength` counts
 * UTF-16 units and `maxLength` code points (the looser of the two counts), so a string the
 * page's own validator accepts is never rejected here.
 *
 * @example
 * const check = jsonSchemaCheck({ type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] })
 * check({ id: 'x' }) // [{ path: 'id', message: 'Expected an integer, received string' }]
 */
export function jsonSchemaCheck(
  schema: JsonSchema | boolean,
  options: JsonSchemaCheckOptions = {},
): JsonSchemaCheck {
  const root: unknown = options.root ?? schema
  const maxDepth = count(options.maxDepth) ?? 64
  const maxSteps = count(options.maxSteps) ?? 200_000
  const maxIssues = Math.max(1, count(options.maxIssues) ?? 50)
  const usePatterns = options.patterns !== false
  const definitionsOnly = options.refs === 'definitions'
  const patterns = new Map<string, RegExp | null>()
  const refs = new Map<string, unknown>()
  let steps = 0

  /** Charges `n` steps of work; past the budget the whole check unwinds. */
  const charge = (n: number) => {
    steps += n
    if (steps > maxSteps) throw new OutOfBounds('Too large to check')
  }

  /** Adds an issue (one step); a list already holding `maxIssues` keeps what it has. */
  const add = (out: ResultIssue[], issue: ResultIssue) => {
    charge(1)
    if (out.length < maxIssues) out.push(issue)
  }

  /** Deep equality of JSON values, for `enum` and `const`; each node compared is a step. */
  const equal = (a: unknown, b: unknown, depth = 0): boolean => {
    charge(1)
    if (a === b) return true
    if (depth > 64 || typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
      return false
    }
    if (Array.isArray(a) !== Array.isArray(b)) return false
    if (Array.isArray(a)) {
      const other = b as unknown[]
      return a.length === other.length && a.every((item, i) => equal(item, other[i], depth + 1))
    }
    const left = Object.keys(a)
    const right = Object.keys(b)
    charge(left.length + right.length)
    const defined = (o: object, keys: string[]) =>
      keys.filter((k) => (o as Node)[k] !== undefined).length
    return (
      defined(a, left) === defined(b, right) &&
      left.every(
        (k) =>
          (a as Node)[k] === undefined ||
          (hasOwn(b, k) && equal((a as Node)[k], (b as Node)[k], depth + 1)),
      )
    )
  }

  /** Runs a schema's regular expression on `text`, charging for the text it reads. */
  const matches = (source: string, text: string): boolean | undefined => {
    const regex = pattern(source)
    if (!regex) return undefined
    charge(1 + Math.ceil(text.length / 64))
    return regex.test(text)
  }

  const pattern = (source: string): RegExp | null => {
    let compiled = patterns.get(source)
    if (compiled !== undefined) return compiled
    compiled = null
    if (source.length <= MAX_PATTERN_LENGTH) {
      try {
        compiled = new RegExp(source, 'u')
      } catch {
        try {
          compiled = new RegExp(source)
        } catch {
          compiled = null
        }
      }
    }
    if (patterns.size < 256) patterns.set(source, compiled)
    return compiled
  }

  /**
   * Resolves `#` and `#/a/b` pointers inside the document (with `refs: 'definitions'` only `#`
   * and `#/$defs/name` or `#/definitions/name`); anything else is ignored.
   */
  const resolve = (ref: string): unknown => {
    if (refs.has(ref)) return refs.get(ref)
    // Past the cache, every visit walks its pointer again: charged by its length.
    charge(Math.ceil(ref.length / 32))
    let target: unknown
    const segments = ref.startsWith('#/') && ref.length <= 1_000 ? ref.slice(2).split('/') : []
    const allowed =
      !definitionsOnly ||
      (segments.length === 2 && (segments[0] === '$defs' || segments[0] === 'definitions'))
    if (ref === '#') target = root
    else if (segments.length > 0 && allowed) {
      target = root
      for (const raw of segments) {
        let segment: string
        try {
          segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
        } catch {
          target = undefined
          break
        }
        if (target !== null && typeof target === 'object' && hasOwn(target, segment)) {
          target = (target as Node)[segment]
        } else {
          target = undefined
          break
        }
      }
    }
    if (refs.size < 1_024) refs.set(ref, target)
    return target
  }

  const visit = (
    node: unknown,
    value: unknown,
    path: string,
    depth: number,
    recursion: number,
    out: ResultIssue[],
  ): void => {
    charge(1)
    if (recursion > MAX_RECURSION) throw new OutOfBounds('The schema nests too deeply to check')
    if (node === false) {
      add(out, { path, message: 'No value is allowed here' })
      return
    }
    if (!isObject(node)) return
    const next = recursion + 1

    const ref = own(node, '$ref')
    if (typeof ref === 'string') {
      const target = resolve(ref)
      if (target !== undefined) visit(target, value, path, depth, next, out)
    }

    const type = own(node, 'type')
    const types = (Array.isArray(type) ? type : [type]).filter(
      (t): t is string => typeof t === 'string' && KNOWN_TYPES.has(t),
    )
    if (types.length > 0 && !types.some((t) => hasType(value, t))) {
      const expected = types.map((t) => TYPE_NAMES[t]).join(' or ')
      add(out, { path, message: `Expected ${expected}, received ${jsonType(value)}` })
      return
    }

    const options = own(node, 'enum')
    if (Array.isArray(options) && !options.some((option) => equal(option, value))) {
      add(out, {
        path,
        message:
          options.length === 1
            ? `Expected ${show(options[0])}`
            : `Expected one of ${options
                .slice(0, 20)
                .map((option) => show(option))
                .join(', ')}`,
      })
    }
    if (hasOwn(node, 'const') && !equal(node.const, value)) {
      add(out, { path, message: `Expected ${show(node.const)}` })
    }

    if (typeof value === 'string') checkString(node, value, path, out)
    else if (finite(value)) checkNumber(node, value, path, out)
    else if (Array.isArray(value)) checkArray(node, value, path, depth, next, out)
    else if (isObject(value)) checkObject(node, value, path, depth, next, out)

    const allOf = own(node, 'allOf')
    if (Array.isArray(allOf)) {
      for (const part of allOf) visit(part, value, path, depth, next, out)
    }
    const anyOf = own(node, 'anyOf')
    if (Array.isArray(anyOf)) branches(anyOf, value, path, depth, next, out, 'any')
    const oneOf = own(node, 'oneOf')
    if (Array.isArray(oneOf)) branches(oneOf, value, path, depth, next, out, 'one')
    if (hasOwn(node, 'not')) {
      const inner: ResultIssue[] = []
      visit(node.not, value, path, depth, next, inner)
      if (inner.length === 0) add(out, { path, message: 'Matches a shape that is not allowed' })
    }
  }

  const branches = (
    list: unknown[],
    value: unknown,
    path: string,
    depth: number,
    recursion: number,
    out: ResultIssue[],
    mode: 'any' | 'one',
  ) => {
    let matches = 0
    let closest: ResultIssue[] | undefined
    for (const branch of list) {
      const inner: ResultIssue[] = []
      visit(branch, value, path, depth, recursion, inner)
      if (inner.length === 0) {
        matches++
        if (mode === 'any' || matches > 1) break
      } else if (!closest || inner.length < closest.length) closest = inner
    }
    if (matches === 0) {
      // The branch that came closest explains the problem best (a discriminated union's own).
      if (closest && closest.length > 0) for (const issue of closest) add(out, issue)
      else add(out, { path, message: 'Matches none of the allowed shapes' })
    } else if (mode === 'one' && matches > 1) {
      add(out, { path, message: 'Matches more than one of the allowed shapes' })
    }
  }

  const checkString = (node: Node, value: string, path: string, out: ResultIssue[]) => {
    const min = count(own(node, 'minLength'))
    if (min !== undefined && value.length < min) {
      add(out, { path, message: `Expected at least ${min} characters` })
    }
    const max = count(own(node, 'maxLength'))
    if (max !== undefined && value.length > max) {
      charge(Math.ceil(value.length / 64))
      if (codePoints(value) > max) add(out, { path, message: `Expected at most ${max} characters` })
    }
    const source = usePatterns ? own(node, 'pattern') : undefined
    if (typeof source === 'string' && matches(source, value) === false) {
      add(out, { path, message: 'Does not match the pattern' })
    }
  }

  const checkNumber = (node: Node, value: number, path: string, out: ResultIssue[]) => {
    const minimum = own(node, 'minimum')
    if (finite(minimum) && value < minimum) {
      add(out, { path, message: `Expected a number of at least ${minimum}` })
    }
    const maximum = own(node, 'maximum')
    if (finite(maximum) && value > maximum) {
      add(out, { path, message: `Expected a number of at most ${maximum}` })
    }
    const exclusiveMinimum = own(node, 'exclusiveMinimum')
    if (finite(exclusiveMinimum) && value <= exclusiveMinimum) {
      add(out, { path, message: `Expected a number greater than ${exclusiveMinimum}` })
    }
    const exclusiveMaximum = own(node, 'exclusiveMaximum')
    if (finite(exclusiveMaximum) && value >= exclusiveMaximum) {
      add(out, { path, message: `Expected a number less than ${exclusiveMaximum}` })
    }
    const multipleOf = own(node, 'multipleOf')
    if (finite(multipleOf) && multipleOf > 0 && (charge(8), !isMultiple(value, multipleOf))) {
      add(out, { path, message: `Expected a multiple of ${multipleOf}` })
    }
  }

  const checkArray = (
    node: Node,
    value: unknown[],
    path: string,
    depth: number,
    recursion: number,
    out: ResultIssue[],
  ) => {
    const min = count(own(node, 'minItems'))
    if (min !== undefined && value.length < min) {
      add(out, { path, message: `Expected at least ${min} items` })
    }
    const max = count(own(node, 'maxItems'))
    if (max !== undefined && value.length > max) {
      add(out, { path, message: `Expected at most ${max} items` })
    }
    const prefix = own(node, 'prefixItems')
    const first = Array.isArray(prefix) ? prefix : []
    const items = own(node, 'items')
    if (value.length > 0 && (first.length > 0 || items !== undefined) && depth >= maxDepth) {
      add(out, { path: joinPath(path, 0), message: 'Nested too deeply' })
      return
    }
    for (let i = 0; i < value.length; i++) {
      const itemSchema = i < first.length ? first[i] : items
      if (itemSchema !== undefined) {
        visit(itemSchema, value[i], joinPath(path, i), depth + 1, recursion, out)
      }
      if (out.length >= maxIssues) return
    }
    if (own(node, 'uniqueItems') === true && value.length > 1) {
      charge(value.length * value.length)
      for (let i = 1; i < value.length; i++) {
        for (let j = 0; j < i; j++) {
          if (equal(value[i], value[j])) {
            add(out, { path: joinPath(path, i), message: `Repeats item ${j}` })
            return
          }
        }
      }
    }
  }

  const checkObject = (
    node: Node,
    value: Node,
    path: string,
    depth: number,
    recursion: number,
    out: ResultIssue[],
  ) => {
    // JSON semantics: a property holding `undefined` is absent.
    const all = Object.keys(value)
    charge(Math.ceil(all.length / 8))
    const keys = all.filter((key) => value[key] !== undefined)
    const required = own(node, 'required')
    if (Array.isArray(required)) {
      for (const key of required) {
        charge(1)
        if (typeof key === 'string' && (!hasOwn(value, key) || value[key] === undefined)) {
          // A full list is charged the same, without building an issue it cannot keep.
          if (out.length >= maxIssues) charge(1)
          else add(out, { path: joinPath(path, key), message: 'Required' })
        }
      }
    }
    const min = count(own(node, 'minProperties'))
    if (min !== undefined && keys.length < min) {
      add(out, { path, message: `Expected at least ${min} properties` })
    }
    const max = count(own(node, 'maxProperties'))
    if (max !== undefined && keys.length > max) {
      add(out, { path, message: `Expected at most ${max} properties` })
    }
    const properties = own(node, 'properties')
    const declared = isObject(properties) ? properties : undefined
    const patternProperties = own(node, 'patternProperties')
    const patternKeys = isObject(patternProperties) ? Object.keys(patternProperties) : []
    const patterned = usePatterns ? patternKeys : []
    // Without patterns, a property one of them would have matched must not count as additional.
    const additional =
      usePatterns || patternKeys.length === 0 ? own(node, 'additionalProperties') : undefined
    const names = own(node, 'propertyNames')
    const needsChildren = declared !== undefined || patterned.length > 0 || additional !== undefined
    if (keys.length > 0 && needsChildren && depth >= maxDepth) {
      add(out, { path: joinPath(path, keys[0]), message: 'Nested too deeply' })
      return
    }
    for (const key of keys) {
      charge(1)
      const at = joinPath(path, key)
      if (names !== undefined) {
        const inner: ResultIssue[] = []
        visit(names, key, at, depth, recursion, inner)
        if (inner.length > 0) add(out, { path: at, message: 'This property name is not allowed' })
      }
      let matched = false
      if (declared && hasOwn(declared, key)) {
        matched = true
        visit(declared[key], value[key], at, depth + 1, recursion, out)
      }
      for (const source of patterned) {
        if (matches(source, key) === true) {
          matched = true
          visit((patternProperties as Node)[source], value[key], at, depth + 1, recursion, out)
        }
      }
      if (!matched && additional !== undefined) {
        if (additional === false) add(out, { path: at, message: 'Unexpected property' })
        else visit(additional, value[key], at, depth + 1, recursion, out)
      }
      if (out.length >= maxIssues) return
    }
  }

  const check = (value: unknown): ResultIssue[] => {
    steps = 0
    const out: ResultIssue[] = []
    try {
      visit(schema, value, '', 0, 0, out)
    } catch (error) {
      // A bound was hit, or the value is not plain data (a throwing getter, a proxy).
      const message = error instanceof OutOfBounds ? error.message : 'Could not be checked'
      return [{ path: '', message }]
    } finally {
      check.lastSteps = Math.min(steps, maxSteps + 1)
    }
    return dedupe(out).slice(0, maxIssues)
  }
  check.lastSteps = 0
  return check
}

/** One issue per path and message (an `allOf` can report the same thing twice). */
function dedupe(issues: ResultIssue[]): ResultIssue[] {
  const seen = new Set<string>()
  return issues.filter((issue) => {
    const key = `${issue.path}\u0000${issue.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
