import { isObject } from '../base/guards'
import { deepFreeze } from '../call/results'
import { inputJsonSchema, jsonSchemaOf, type JsonSchemaConverter } from '../schema/jsonSchema'
import { jsonSchemaCheck } from '../schema/jsonSchemaCheck'
import { isStandardSchema, validateWith, type Validated } from '../schema/standardSchema'
import type { JsonSchema, QuestionSpec, StandardSchemaV1 } from '../types'

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

/** An answer's check is small: a flat form's worth of values. */
const ANSWER_CHECK = { maxSteps: 20_000, maxIssues: 20, maxDepth: 4 } as const

const isPrimitive = (v: unknown) =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))

/** Why one field (or a root leaf) cannot be drawn, or `undefined` when it can. */
function leafProblem(node: unknown, where: string): string | undefined {
  if (!isObject(node)) return `${where} must be a schema object`
  for (const key of NESTING) {
    if (key in node) return `${where} uses "${key}"`
  }
  if ('enum' in node) {
    const values = node.enum
    if (!Array.isArray(values) || values.length === 0 || !values.every(isPrimitive)) {
      return `${where} has an enum that is not a list of strings, numbers or booleans`
    }
    return undefined
  }
  if ('const' in node) {
    return isPrimitive(node.const) ? undefined : `${where} has a const that is not a plain value`
  }
  if (!LEAF_TYPES.includes(node.type)) {
    return `${where} must have type "string", "number", "integer" or "boolean", or an enum`
  }
  return undefined
}

/**
 * Why a question's JSON Schema is not one a dialog can ask with, or `undefined` when it is: a
 * string, number, integer or boolean, an enum (or const) of those, or a flat object of those.
 */
export function questionSchemaProblem(schema: JsonSchema): string | undefined {
  if (schema.type !== 'object' && !('properties' in schema))
    return leafProblem(schema, 'the answer')
  if (schema.type !== 'object') return 'an object answer needs type "object"'
  const { properties, required, additionalProperties } = schema
  if (!isObject(properties)) return 'an object answer needs properties'
  const names = Object.keys(properties)
  if (names.length === 0) return 'an object answer needs at least one property'
  if (names.length > MAX_FIELDS) return `an object answer has more than ${MAX_FIELDS} properties`
  if (required !== undefined) {
    if (!Array.isArray(required) || !required.every((r) => typeof r === 'string')) {
      return 'required must list property names'
    }
  }
  if (additionalProperties !== undefined && typeof additionalProperties !== 'boolean') {
    return 'additionalProperties must be true or false'
  }
  for (const key of NESTING) {
    if (key !== 'properties' && key !== 'additionalProperties' && key in schema) {
      return `the answer uses "${key}"`
    }
  }
  for (const name of names) {
    const problem = leafProblem(properties[name], `property "${name}"`)
    if (problem) return problem
  }
  return undefined
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
 * is, and answers are checked against it. Anything else is a problem, in words for the fix.
 */
export function prepareQuestion(
  request: unknown,
  converter: JsonSchemaConverter | undefined,
): PreparedQuestion | { problem: string } {
  if (!isObject(request)) return { problem: 'takes { prompt, schema }' }
  const { prompt, schema } = request
  if (typeof prompt !== 'string' || prompt.trim() === '') {
    return { problem: 'needs a prompt: the question, in words for the person' }
  }
  if (!isObject(schema)) {
    return { problem: 'needs a schema: a Standard Schema (zod…) or a JSON Schema' }
  }
  const standard = isStandardSchema(schema) ? (schema as StandardSchemaV1) : undefined
  const conversion = standard
    ? jsonSchemaOf(standard, converter)
    : inputJsonSchema(undefined, schema, undefined)
  const json = conversion.schema
  if (!json) {
    return {
      problem:
        'has a schema without a JSON Schema: use zod ≥ 4.2, pass createToolmark({ jsonSchema }), or give a JSON Schema',
    }
  }
  const problem = questionSchemaProblem(json)
  if (problem) {
    return {
      problem: `${problem}: ask for a string, number, boolean, enum, or a flat object of those`,
    }
  }
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
  const check = jsonSchemaCheck(json, ANSWER_CHECK)
  return {
    spec,
    validate(value) {
      const copy = copyOf(value)
      if (!copy) return NOT_PLAIN
      const issues = check(copy.value)
      return issues.length > 0 ? { issues } : copy
    },
  }
}
