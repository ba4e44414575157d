import { CLIENT_SCHEMA_CHECK, jsonSchemaCheck } from '../schema/jsonSchemaCheck'
import type { JsonSchema, ResultIssue } from '../types'
import type { AiSdkValidationResult } from './pageToolTypes'

/** How many issues the error message lists; all of them stay on `error.issues`. */
const LISTED = 10

/**
 * The `validate` function the AI SDK's `jsonSchema(schema, { validate })` takes, built from a
 * tool's JSON Schema with `jsonSchemaCheck`: the SDK then refuses arguments that do not match
 * (`AI_InvalidToolInputError`, shown to the model) before `execute` runs. The error's message
 * lists the issues as `path: message`; `error.issues` holds them all. The schema came from a
 * client (a page or a chat request), so it is checked as one: no regular expression of it runs,
 * its `$ref`s reach only its definitions, and the work is bounded (`CLIENT_SCHEMA_CHECK`); the
 * page checks the patterns itself when the call reaches it.
 */
export function aiSdkValidate(schema: JsonSchema): (value: unknown) => AiSdkValidationResult {
  const check = jsonSchemaCheck(schema, CLIENT_SCHEMA_CHECK)
  return (value) => {
    const issues = check(value)
    if (issues.length === 0) return { success: true, value }
    const listed = issues
      .slice(0, LISTED)
      .map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message))
      .join('; ')
    const error = Object.assign(
      new Error(`The input does not match the tool's schema: ${listed}`),
      {
        issues: issues as ResultIssue[],
      },
    )
    return { success: false, error }
  }
}
