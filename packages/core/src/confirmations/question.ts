import { isObject } from '../base/guards'
import { deepFreeze } from '../base/results'
import { inputJsonSchema, jsonSchemaOf } from '../schema/jsonSchema'
import type { JsonSchemaConverter } from '../schema/jsonSchemaConverter'
import { isStandardSchema, validateWith, type Validated } from '../schema/standardSchema'
import type { JsonSchema, QuestionSpec, ResultIssue, StandardSchemaV1 } from '../types'

/** A question `ctx.ask` may file: what the entry shows, and how an answer is checked. */
export interface PreparedQuestion {
  readonly spec: QuestionSpec
  /** Checks a copy of the answer; throws (or rejects) only when the app's validator does. */
  validate(value: unknown): Validated<unknown> | Promise<Validated<unknown>>
}

const LEAF_TYPES: readonly unknown[] = ['string', 'number', 'integer', 'boolean']

/** Keywords a dialog's small form cannot draw: nesting, lists and alternatives. */
const NESTING = [
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  '$ref',
  '$dynamicRef',
  'items',
  'prefixItems',
  'properties',
  'patternProperties',
  'additionalProperties',
  'if',
  'then',
  'else',
  'dependentSchemas',
]

/** Most properties a question's object may have: it is a small form, not a page. */
const MAX_FIELDS = 20

const isPrimitive = (v: unknown) =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))

/**
 * What makes a question unaskable: a short phrase and the words it names. Development turns it
 * into a message with the fix (misconfiguration.ts); production keeps only these few words.
 */
export type QuestionProblem = readonly [detail: string, ...words: string[]]

const SHAPE = 'question shape'

/** Why one field (or a root leaf) cannot be drawn, or `undefined` when it can. */
function leafProblem(node: unknown, where: string): QuestionProblem | undefined {
  if (!isObject(node)) return [SHAPE, 'is not a schema', where]
  for (const key of NESTING) {
    if (key in node) return [SHAPE, `uses "${key}"`, where]
  }
  if ('enum' in node) {
    const values = node.enum
    if (!Array.isArray(values) || values.length === 0 || !values.every(isPrimitive)) {
      return [SHAPE, 'has an enum of other than strings, numbers or booleans', where]
    }
    return undefined
  }
  if ('const' in node) {
    return isPrimitive(node.const) ? undefined : [SHAPE, 'has a const that is not plain', where]
  }
  return LEAF_TYPES.includes(node.type) ? undefined : [SHAPE, 'has no simple type', where]
}

/**
 * Why a question's JSON Schema is not one a dialog can ask with, or `undefined` when it is: a
 * string, number, integer or boolean, an enum (or const) of those, or a flat object of those.
 */
export function questionSchemaProblem(schema: JsonSchema): QuestionProblem | undefined {
  const root = 'the answer'
  if (schema.type !== 'object' && !('properties' in schema)) return leafProblem(schema, root)
  if (schema.type !== 'object') return [SHAPE, 'has properties but no type "object"', root]
  const { properties, required, additionalProperties } = schema
  if (!isObject(properties)) return [SHAPE, 'has no properties', root]
  const names = Object.keys(properties)
  if (names.length === 0) return [SHAPE, 'has no properties', root]
  if (names.length > MAX_FIELDS) return [SHAPE, `has more than ${MAX_FIELDS} properties`, root]
  if (required !== undefined) {
    if (!Array.isArray(required) || !required.every((r) => typeof r === 'string')) {
      return [SHAPE, 'has a required that is not a list of names', root]
    }
  }
  if (additionalProperties !== undefined && typeof additionalProperties !== 'boolean') {
    return [SHAPE, 'has an additionalProperties schema', root]
  }
  for (const key of NESTING) {
    if (key !== 'properties' && key !== 'additionalProperties' && key in schema) {
      return [SHAPE, `uses "${key}"`, root]
    }
  }
  for (const name of names) {
    const problem = leafProblem(properties[name], `property "${name}"`)
    if (problem) return problem
  }
  return undefined
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
const list = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(', ')

/**
 * What is wrong with one value against one field's schema, or `undefined`. Only the shapes
 * `questionSchemaProblem` lets through reach here, so a small check does (the general JSON Schema
 * checker stays out of the core bundle): `enum`, `const`, `type`, and the bounds a form shows.
 */
function leafIssue(node: Record<string, unknown>, value: unknown): string | undefined {
  if (Array.isArray(node.enum)) {
    return node.enum.includes(value) ? undefined : `Choose one of ${list(node.enum)}`
  }
  if ('const' in node) return value === node.const ? undefined : `Must be ${list([node.const])}`
  switch (node.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'Expected true or false'
    case 'string': {
      if (typeof value !== 'string') return 'Expected text'
      const length = [...value].length
      const min = num(node.minLength)
      const max = num(node.maxLength)
      if (min !== undefined && length < min) return `At least ${min} characters`
      if (max !== undefined && length > max) return `At most ${max} characters`
      if (typeof node.pattern === 'string') {
        try {
          if (!new RegExp(node.pattern, 'u').test(value)) return 'Not in the expected form'
        } catch {
          // A pattern this engine cannot read checks nothing, as a form would.
        }
      }
      return undefined
    }
    default: {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'Expected a number'
      if (node.type === 'integer' && !Number.isInteger(value)) return 'Expected a whole number'
      const min = num(node.minimum)
      const max = num(node.maximum)
      const above = num(node.exclusiveMinimum)
      const below = num(node.exclusiveMaximum)
      if (min !== undefined && value < min) return `At least ${min}`
      if (max !== undefined && value > max) return `At most ${max}`
      if (above !== undefined && value <= above) return `More than ${above}`
      if (below !== undefined && value >= below) return `Less than ${below}`
      return undefined
    }
  }
}

/** The issues of an answer against a question's (checked) schema; none when it fits. */
export function answerIssues(schema: JsonSchema, value: unknown): ResultIssue[] {
  if (schema.type !== 'object') {
    const issue = leafIssue(schema, value)
    return issue ? [{ path: '', message: issue }] : []
  }
  if (!isObject(value)) return [{ path: '', message: 'Expected an object' }]
  const properties = schema.properties as Record<string, Record<string, unknown>>
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : []
  const issues: ResultIssue[] = []
  for (const [name, node] of Object.entries(properties)) {
    if (!Object.prototype.hasOwnProperty.call(value, name) || value[name] === undefined) {
      if (required.includes(name)) issues.push({ path: name, message: 'Required' })
      continue
    }
    const issue = leafIssue(node, value[name])
    if (issue) issues.push({ path: name, message: issue })
  }
  if (schema.additionalProperties === false) {
    for (const name of Object.keys(value)) {
      if (!Object.prototype.hasOwnProperty.call(properties, name)) {
        issues.push({ path: name, message: 'Not asked for' })
      }
    }
  }
  return issues
}

/** The answer as a plain, frozen copy, or `undefined` when it cannot be copied. */
function copyOf(value: unknown): { value: unknown } | undefined {
  try {
    return { value: deepFreeze(structuredClone(value)) }
  } catch {
    return undefined
  }
}

const NOT_PLAIN: Validated<unknown> = Object.freeze({
  issues: [{ path: '', message: 'The answer must be a plain value' }],
})

/**
 * Reads what `ctx.ask` was given. A Standard Schema gives its Standard JSON Schema (or the
 * registry's converter's) for the form and validates answers itself; a JSON Schema is used as
 * is, and answers are checked against it. Anything else is a problem (see `QuestionProblem`).
 */
export function prepareQuestion(
  request: unknown,
  converter: JsonSchemaConverter | undefined,
): PreparedQuestion | { problem: QuestionProblem } {
  if (!isObject(request)) return { problem: ['question request'] }
  const { prompt, schema } = request
  if (typeof prompt !== 'string' || prompt.trim() === '') return { problem: ['question prompt'] }
  if (!isObject(schema)) return { problem: ['question schema'] }
  const standard = isStandardSchema(schema) ? (schema as StandardSchemaV1) : undefined
  const conversion = standard
    ? jsonSchemaOf(standard, converter)
    : inputJsonSchema(undefined, schema, undefined)
  const json = conversion.schema
  if (!json) return { problem: ['question json schema'] }
  const problem = questionSchemaProblem(json)
  if (problem) return { problem }
  const spec: QuestionSpec = deepFreeze({ prompt, schema: json })
  if (standard) {
    return {
      spec,
      validate(value) {
        const copy = copyOf(value)
        return copy ? validateWith(standard, copy.value) : NOT_PLAIN
      },
    }
  }
  return {
    spec,
    validate(value) {
      const copy = copyOf(value)
      if (!copy) return NOT_PLAIN
      const issues = answerIssues(json, copy.value)
      return issues.length > 0 ? { issues } : copy
    },
  }
}
