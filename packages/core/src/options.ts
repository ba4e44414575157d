import { isObject, own } from './guards'
import type { Problem } from './problem'
import type { Limits } from './types'

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
export const OPTION_KEYS = ['dev', 'policy', 'confirm', 'limits', 'jsonSchema']

/**
 * Reads `createToolmark`'s options (the policy apart): what is wrong with them, and the limits to
 * use — the valid ones given, the defaults for the others (fail closed).
 */
export function readOptions(options: unknown): { problems: Problem[]; limits: Readonly<Limits> } {
  const problems: Problem[] = []
  const limits: Limits = { ...DEFAULT_LIMITS }
  if (options !== undefined && !isObject(options)) problems.push(['options'])
  if (!isObject(options)) return { problems, limits: Object.freeze(limits) }
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.includes(key)) problems.push(['unknown option', key])
  }
  const dev = own(options, 'dev')
  if (dev !== undefined && typeof dev !== 'boolean') problems.push(['dev'])
  const jsonSchema = own(options, 'jsonSchema')
  if (jsonSchema !== undefined && typeof jsonSchema !== 'function') problems.push(['jsonSchema'])
  const confirm = own(options, 'confirm')
  if (confirm !== undefined && !isObject(confirm)) problems.push(['confirm'])
  else if (confirm !== undefined) {
    for (const [key, mode] of Object.entries(confirm)) {
      if ((key !== 'inapp' && key !== 'test') || (mode !== 'deferred' && mode !== 'inline')) {
        problems.push(['confirm mode', key, String(JSON.stringify(mode))])
      }
    }
  }
  const given = own(options, 'limits')
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
  return { problems, limits: Object.freeze(limits) }
}
