import type { JsonSchema, StandardSchemaV1 } from '../types'

/** A `jsonSchema` converter as `createToolmark` takes it. */
export type JsonSchemaConverter = (schema: StandardSchemaV1) => JsonSchema | undefined
