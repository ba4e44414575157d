import { NODE_ENV_READABLE } from '../base/nodeEnv'
import { DEFAULT_LIMITS, OPTION_KEYS } from './options'
import { CLASSES } from '../tool/policy'
import { POLICY_CALLERS } from '../tool/callers'
import type { Problem } from '../base/problem'
import { HINT_KEYS } from './toolDefinition'
import type { ToolErrorSource } from '../tool/toolRecord'
import type { ErrorEvent } from '../types'

declare const process: { env: Record<string, string | undefined> }

/**
 * The message a misconfiguration (or a tool's own failure) carries. Development builds explain
 * the fix; production builds leave those texts out of the bundle and carry the short phrase and
 * its words, beside the event's stable code (docs/codes.md says what each code means and how to
 * fix it).
 */
export function problemMessage(problem: Problem): string {
  if (NODE_ENV_READABLE && process.env.NODE_ENV !== 'production') return explain(problem)
  const [detail, ...words] = problem
  return words.length > 0 ? `${detail}: ${words.join(', ')}` : detail
}

const json = (word: string) => JSON.stringify(word)

/** Development texts, by detail: what is wrong and how to fix it. */
const TEXTS: Record<string, (a: string, b: string, c: string) => string> = {
  // createToolmark options
  options: () => 'createToolmark() takes an options object',
  'unknown option': (key) =>
    `createToolmark() got an unknown option "${key}": use ${OPTION_KEYS.join(', ')}`,
  dev: () => 'createToolmark({ dev }) takes a boolean',
  jsonSchema: () => 'createToolmark({ jsonSchema }) takes a function (schema) => JSON Schema',
  confirm: () =>
    'createToolmark({ confirm }) takes { inapp?, test?, verifier?, origin?, rpId?, grants?, questions? }',
  'confirm feature': (key) =>
    `confirm.${key} must come from ${key}() of @toolmark/core, which brings its code`,
  'confirm verifier': () =>
    'confirm.verifier must come from passkeyVerifier() or webauthnVerifier(ask) of @toolmark/core/passkey, which bring the challenge and the checks of what it gives',
  'confirm text': (key) => `confirm.${key} must be a string`,
  'confirm mode': (key, mode) =>
    `confirm.${key} cannot be ${mode}: only inapp and test are configurable, as "deferred" or "inline" (webmcp and mcp are always inline)`,
  limits: () => 'createToolmark({ limits }) takes an object',
  'unknown limit': (key) =>
    `limits.${key} is not a limit: use ${Object.keys(DEFAULT_LIMITS).join(', ')}`,
  limit: (key) => `limits.${key} must be a positive number`,
  files: () => 'createToolmark({ files }) takes { resolve?, allowOrigins?, maxBytes?, timeoutMs? }',
  'files key': (key) =>
    `files has an unknown key "${key}": use resolve, allowOrigins, maxBytes or timeoutMs`,
  'files resolve': () => 'files.resolve must be a function (ref, { signal }) => Blob | File',
  'files origins': () => 'files.allowOrigins must be a list of origins',
  'files origin': (origin) =>
    `files.allowOrigins: ${json(origin)} is not an exact origin: write "https://host[:port]" (http only for localhost, 127.0.0.1 or [::1]), without a path`,
  'files number': (key) => `files.${key} must be a positive number`,
  // policy
  policy: () => 'policy must be an object keyed by caller',
  'unknown caller': (caller) =>
    `Policy names an unknown caller "${caller}": use ${POLICY_CALLERS.join(', ')} ("human" is fixed)`,
  'policy entry': (caller) => `policy.${caller} must be an object like { allow: ['readOnly'] }`,
  'policy key': (caller, key) =>
    `policy.${caller} has an unknown key "${key}": use allow, tools, rateLimit, verify or grants`,
  'policy allow': (caller) =>
    `policy.${caller}.allow must list classes among ${CLASSES.join(', ')}`,
  'policy tools': (caller) =>
    `policy.${caller}.tools must be { allow?: string[], deny?: string[] }`,
  'policy tools key': (caller, key) =>
    `policy.${caller}.tools has an unknown key "${key}": use allow or deny`,
  'policy names': (caller, key) =>
    `policy.${caller}.tools.${key} must list full tool names or "prefix.*" patterns`,
  'policy verify': (caller) =>
    `policy.${caller}.verify must list classes among destructive, consequential`,
  'policy grants': (caller) =>
    `policy.${caller}.grants must be a boolean or a list of full tool names or "prefix.*" patterns`,
  'policy rateLimit': (caller) =>
    `policy.${caller}.rateLimit must be { calls: positive integer, perMs: positive number }`,
  // scopes
  'setWhen type': (type) => `scope.setWhen() takes a boolean, got ${type}`,
  'scope name': (name) => `Scope name ${json(name)} is invalid: use letters, digits, "_" or "-"`,
  'scope options': (name) => `Scope "${name}" got options that are not an object`,
  'scope flag': (name, key) => `Scope "${name}" got a non-boolean ${key}`,
  'scope disposed': (name) => `Scope "${name}" was created inside a disposed scope`,
  // registration
  'register options': () => 'tm.register() options must be { scope?, signal? }',
  definition: () => 'tm.register() takes a tool definition object',
  'foreign scope': (name) => `Tool ${json(name)} got a scope that is not from this registry`,
  'tool name': (name) =>
    `Tool name ${json(name)} is invalid: use segments of letters, digits, "_" or "-" joined by ".", at most 128 characters`,
  description: (name) =>
    `Tool "${name}" needs a description: tell the model what it does and when to use it`,
  run: (name) => `Tool "${name}" needs a run(input, ctx) function`,
  title: (name) => `Tool "${name}" has a title that is not a string`,
  input: (name) =>
    `Tool "${name}" has an input that is not a Standard Schema: pass a zod 4 schema (or any Standard Schema v1)`,
  output: (name) =>
    `Tool "${name}" has an output that is not a Standard Schema: pass a zod 4 schema (or any Standard Schema v1)`,
  inputSchema: (name) => `Tool "${name}" has an inputSchema that is not a JSON Schema object`,
  hints: (name) => `Tool "${name}" has hints that are not an object`,
  hint: (name, key) =>
    `Tool "${name}" has an unknown or non-boolean hint "${key}": use ${HINT_KEYS.join(', ')}`,
  'hint conflict': (name) =>
    `Tool "${name}" cannot be readOnly and consequential/destructive at once: drop one hint`,
  sensitive: (name) =>
    `Tool "${name}" has sensitive paths that are not a string array (or a function returning one)`,
  verify: (name) => `Tool "${name}" has a verify that is not a boolean`,
  grant: (name) => `Tool "${name}" has a grant that is not a boolean`,
  timeoutMs: (name) =>
    `Tool "${name}" has an invalid timeoutMs: use a positive number of milliseconds`,
  'not a function': (name, key) => `Tool "${name}" has a ${key} that is not a function`,
  'no JSON Schema': (name) =>
    `Tool "${name}" has an input schema without a JSON Schema: use zod ≥ 4.2, pass inputSchema, or give createToolmark a jsonSchema converter`,
  'disposed scope': (name) => `Tool "${name}" was registered in a disposed scope`,
  duplicate: (name) =>
    `Tool "${name}" is already registered: tool names are unique; dispose the first registration or rename one`,
  'duplicate llmName': (name, llmName, other) =>
    `Tool "${name}" has the same llmName "${llmName}" as "${other}": rename one`,
  // listeners, consumers, undo
  subscribe: () => 'tm.subscribe() takes a function (rev) => void',
  'events.on': (type) => `tm.events.on("${type}") takes a function`,
  use: () => 'tm.use() takes a function (tm) => dispose',
  registerUndo: (name) =>
    `ctx.registerUndo() in "${name}" takes a function that restores what the run changed`,
  'consumer threw': () => 'A consumer passed to tm.use() threw',
  'consumer teardown threw': () => 'A consumer teardown threw',
  // a tool's own code, at run time
  'tool threw': (name) => `Tool "${name}" threw`,
  'check threw': (name) => `The check of "${name}" threw`,
  'summary threw': (name) => `The summary or confirmation of "${name}" threw`,
  'questions not enabled': (name) =>
    `ctx.ask() in "${name}" needs the question code: give createToolmark({ confirm: { questions: questions() } }) from @toolmark/core`,
  'question request': (name) => `ctx.ask() in "${name}" takes { prompt, schema }`,
  'question prompt': (name) =>
    `ctx.ask() in "${name}" needs a prompt: the question, in words for the person`,
  'question schema': (name) =>
    `ctx.ask() in "${name}" needs a schema: a Standard Schema (zod…) or a JSON Schema`,
  'question json schema': (name) =>
    `ctx.ask() in "${name}" has a schema without a JSON Schema: use zod ≥ 4.2, pass createToolmark({ jsonSchema }), or give a JSON Schema`,
  'question shape': (name, what, where) =>
    `ctx.ask() in "${name}": ${where} ${what}; a dialog asks for a string, number, integer or boolean, an enum of those, or a flat object of at most 20 of those`,
  'question validator threw': (name) =>
    `The question schema of "${name}" threw while checking an answer`,
  'undo threw': (name) => `The undo of "${name}" threw`,
  'validator threw': (name) => `The input schema of "${name}" threw while validating`,
  'late result': (name) => `Tool "${name}" settled after its call was abandoned`,
  'json schema failed': (name) => `The input JSON Schema of "${name}" could not be produced`,
  'invalid result': (name) => `Tool "${name}" returned something that is not a ToolResult`,
  'result not serializable': (name) =>
    `Tool "${name}" returned data that cannot be structured-cloned`,
  'result keys dropped': (name) =>
    `Tool "${name}" returned keys its result status does not have; they were dropped`,
}

function explain([detail, a = '', b = '', c = '']: Problem): string {
  const text = TEXTS[detail]
  return text ? text(a, b, c) : detail
}

/** Reports a misconfiguration: development throws with the fix; production reports the event. */
export type Misconfigured = (
  code: string,
  problem: Problem,
  tool?: string,
  report?: (event: ErrorEvent) => void,
) => void

/** A registry's `misconfigured`: the caller fails closed after it in production. */
export function misconfiguredFor(dev: boolean, errorEvent: (event: ErrorEvent) => void) {
  const misconfigured: Misconfigured = (code, problem, tool, report = errorEvent) => {
    const message = problemMessage(problem)
    if (dev) throw new Error(`[toolmark] ${message}`)
    report(tool ? { code, message, tool } : { code, message })
  }
  return misconfigured
}

/** A registry's `toolError`: an `error` event about one tool's own code, naming the tool. */
export const toolErrorFor =
  (errorEvent: (event: ErrorEvent) => void) =>
  (code: string, source: ToolErrorSource, cause: unknown, detail = code.replace(/_/g, ' ')) => {
    const tool = source.record?.name
    errorEvent({
      code,
      message: problemMessage([detail, String(tool)]),
      tool,
      callId: source.callId,
      ...(cause === undefined ? {} : { cause }),
    })
  }
