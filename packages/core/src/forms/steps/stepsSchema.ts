import type { JsonSchema, StandardSchemaResult, StandardSchemaV1 } from '../../types'
import { isPlainObject } from '../values/paths'

type Schema = Record<string, unknown>

/**
 * The Standard Schema of a wizard's values, an object keyed by step id: anything else is one
 * issue at the root, and an object is checked by `validate`.
 */
export function stepsSchema(
  validate: (
    tree: Record<string, unknown>,
  ) => StandardSchemaResult<unknown> | Promise<StandardSchemaResult<unknown>>,
): StandardSchemaV1 {
  return {
    '~standard': {
      version: 1,
      vendor: 'toolmark',
      validate(tree) {
        if (!isPlainObject(tree)) {
          return { issues: [{ message: 'Expected an object of steps', path: [] }] }
        }
        return validate(tree)
      },
    },
  }
}

/**
 * The JSON Schema of a wizard's values: every step required, under its id, with its title and
 * the object schema `bodyOf` gives for it; nothing else allowed.
 */
export function stepsJsonSchema<TStep extends { readonly id: string; readonly title?: string }>(
  steps: readonly TStep[],
  bodyOf: (step: TStep, index: number) => Schema,
): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(
      steps.map((step, k) => [
        step.id,
        { ...(step.title ? { title: step.title } : {}), ...bodyOf(step, k) },
      ]),
    ),
    required: steps.map((s) => s.id),
    additionalProperties: false,
  }
}
