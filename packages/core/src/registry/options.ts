import { isObject, own } from '../base/guards'
import type { Problem } from '../base/problem'
import type { JsonSchemaConverter } from '../schema/jsonSchemaConverter'
import { isFeature } from '../confirmations/feature'
import { verifierFlows } from '../base/verifierFlows'
import { NODE_ENV_READABLE } from '../base/nodeEnv'
import { isFileProtocol } from '../base/fileProtocol'
import type {
  ConfirmFeature,
  ConfirmMode,
  FilesOptions,
  Limits,
  Verifier,
  VerifyOptions,
} from '../types'

/** Every limit's default (DESIGN §3.9). */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  queuePerScope: 32,
  pendingConfirmations: 100,
  undoJournal: 100,
  confirmationExpiryMs: 600_000,
  abortGraceMs: 5_000,
  callTimeoutMs: 120_000,
  messageBytes: 1_048_576,
  messageDepth: 64,
  fillNodes: 10_000,
  optionsTimeoutMs: 10_000,
  optionsItems: 50,
  signatureBudget: 240,
})

/** The options `createToolmark` takes. */
declare const process: { env: Record<string, string | undefined> }

/** Development unless `process.env.NODE_ENV` says production; where it cannot be read, too. */
export const defaultDev = (): boolean => !NODE_ENV_READABLE || process.env.NODE_ENV !== 'production'

export const OPTION_KEYS = ['dev', 'policy', 'confirm', 'limits', 'jsonSchema', 'files']

/** `createToolmark`'s options as the registry uses them, and what is wrong with them. */
export interface ReadOptions {
  problems: Problem[]
  /** `undefined` when not given as a boolean (the build decides). */
  dev: boolean | undefined
  policy: unknown
  /** The confirmation modes of the two configurable callers. */
  confirm: { inapp: ConfirmMode; test: ConfirmMode }
  /** Step-up verification: the verifier and what assertions must match. */
  verification: VerifyOptions
  /** The optional parts of the confirmations given (`grants()`, `questions()`). */
  features: ConfirmFeature[]
  /** The valid limits given, the defaults for the others (fail closed). */
  limits: Readonly<Limits>
  converter: JsonSchemaConverter | undefined
  /** `files`, when valid (an invalid one leaves file fields closed: fail closed). */
  files: Readonly<FilesOptions> | undefined
}

/** Whether `origin` is written as an exact origin (`https://a.example`, no path, no slash). */
function isExactOrigin(origin: unknown): boolean {
  if (typeof origin !== 'string') return false
  try {
    const url = new URL(origin)
    return url.origin === origin && isFileProtocol(url)
  } catch {
    return false
  }
}

/** Reads `files`; an invalid value is reported and leaves files off. */
function readFiles(given: unknown, problems: Problem[]): Readonly<FilesOptions> | undefined {
  if (given === undefined) return undefined
  if (!isObject(given)) {
    problems.push(['files'])
    return undefined
  }
  const before = problems.length
  for (const key of Object.keys(given)) {
    if (!['resolve', 'allowOrigins', 'maxBytes', 'timeoutMs'].includes(key)) {
      problems.push(['files key', key])
    }
  }
  const resolve = own(given, 'resolve')
  if (resolve !== undefined && typeof resolve !== 'function') problems.push(['files resolve'])
  const origins = own(given, 'allowOrigins')
  if (origins !== undefined) {
    if (!Array.isArray(origins)) problems.push(['files origins'])
    else for (const o of origins) if (!isExactOrigin(o)) problems.push(['files origin', String(o)])
  }
  for (const key of ['maxBytes', 'timeoutMs']) {
    const v = own(given, key)
    if (v !== undefined && !(typeof v === 'number' && v > 0 && Number.isFinite(v))) {
      problems.push(['files number', key])
    }
  }
  if (problems.length > before) return undefined
  return Object.freeze({
    ...(typeof resolve === 'function' ? { resolve: resolve as FilesOptions['resolve'] } : {}),
    ...(Array.isArray(origins) ? { allowOrigins: Object.freeze([...(origins as string[])]) } : {}),
    ...(own(given, 'maxBytes') !== undefined ? { maxBytes: own(given, 'maxBytes') as number } : {}),
    ...(own(given, 'timeoutMs') !== undefined
      ? { timeoutMs: own(given, 'timeoutMs') as number }
      : {}),
  })
}

/**
 * A verifier made by `passkeyVerifier()` or `webauthnVerifier()`: it computes the challenge, asks
 * and checks, and brings the verification that does so (a copy of one brings nothing).
 */
const isVerifier = (value: unknown): value is Verifier =>
  isObject(value) && verifierFlows.has(value)

/**
 * Reads `createToolmark`'s options, own properties only: a polluted `Object.prototype`
 * configures nothing. The policy is compiled apart.
 */
export function readOptions(options: unknown): ReadOptions {
  const problems: Problem[] = []
  const limits: Limits = { ...DEFAULT_LIMITS }
  const o = isObject(options) ? options : {}
  if (options !== undefined && !isObject(options)) problems.push(['options'])
  for (const key of Object.keys(o)) {
    if (!OPTION_KEYS.includes(key)) problems.push(['unknown option', key])
  }
  const dev = own(o, 'dev')
  if (dev !== undefined && typeof dev !== 'boolean') problems.push(['dev'])
  const jsonSchema = own(o, 'jsonSchema')
  if (jsonSchema !== undefined && typeof jsonSchema !== 'function') problems.push(['jsonSchema'])
  const confirm = own(o, 'confirm')
  if (confirm !== undefined && !isObject(confirm)) problems.push(['confirm'])
  const verification: VerifyOptions = {}
  const features: ConfirmFeature[] = []
  if (confirm !== undefined && isObject(confirm)) {
    for (const [key, value] of Object.entries(confirm)) {
      if (key === 'grants' || key === 'questions') {
        if (isFeature(value, key)) features.push(value)
        else if (value !== undefined) problems.push(['confirm feature', key])
      } else if (key === 'verifier') {
        if (isVerifier(value)) verification.verifier = value
        else if (value !== undefined) problems.push(['confirm verifier'])
      } else if (key === 'origin' || key === 'rpId') {
        if (typeof value === 'string') verification[key] = value
        else if (value !== undefined) problems.push(['confirm text', key])
      } else if (
        (key !== 'inapp' && key !== 'test') ||
        (value !== 'deferred' && value !== 'inline')
      ) {
        problems.push(['confirm mode', key, String(JSON.stringify(value))])
      }
    }
  }
  const given = own(o, 'limits')
  if (given !== undefined && !isObject(given)) problems.push(['limits'])
  else if (given !== undefined) {
    for (const [key, v] of Object.entries(given)) {
      if (own(DEFAULT_LIMITS, key) === undefined) problems.push(['unknown limit', key])
      else if (
        typeof v === 'number' &&
        v > 0 &&
        (Number.isFinite(v) || key === 'signatureBudget')
      ) {
        limits[key as keyof Limits] = v
      } else if (v !== undefined) problems.push(['limit', key])
    }
  }
  const modeOf = (caller: string): ConfirmMode =>
    isObject(confirm) && own(confirm, caller) === 'inline' ? 'inline' : 'deferred'
  return {
    problems,
    dev: typeof dev === 'boolean' ? dev : undefined,
    policy: own(o, 'policy'),
    confirm: { inapp: modeOf('inapp'), test: modeOf('test') },
    verification,
    features,
    limits: Object.freeze(limits),
    converter: typeof jsonSchema === 'function' ? (jsonSchema as JsonSchemaConverter) : undefined,
    files: readFiles(own(o, 'files'), problems),
  }
}
