/** Independent checks of what `tm.call` promises about every result (the seed's "Results"). */

const KEYS: Record<string, { required: string[]; optional: string[] }> = {
  ok: { required: ['status', 'data'], optional: [] },
  invalid: { required: ['status', 'issues'], optional: [] },
  refused: { required: ['status', 'code', 'message'], optional: ['rev'] },
  needs_confirmation: { required: ['status', 'confirmId', 'summary'], optional: ['changes'] },
  cancelled: { required: ['status', 'by'], optional: [] },
  error: { required: ['status', 'message'], optional: [] },
}

const exactKeys = (value: object, required: string[], optional: string[]): boolean => {
  const keys = Reflect.ownKeys(value)
  return (
    required.every((k) => keys.includes(k)) &&
    keys.every((k) => typeof k === 'string' && (required.includes(k) || optional.includes(k)))
  )
}

const isPlain = (value: unknown): value is Record<string, unknown> =>
  value !== null &&
  typeof value === 'object' &&
  (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)

/**
 * What is wrong with `result` as a `ToolResult`, or `undefined`: one of the six statuses, only
 * its own keys (issues and changes too), each of the right type.
 */
export function shapeProblem(result: unknown): string | undefined {
  if (!isPlain(result)) return 'not a plain object'
  const status = result.status
  if (typeof status !== 'string' || !(status in KEYS)) return `unknown status ${String(status)}`
  const { required, optional } = KEYS[status]
  if (!exactKeys(result, required, optional)) {
    return `${status} has keys ${Reflect.ownKeys(result).map(String).join(',')}`
  }
  switch (status) {
    case 'invalid': {
      const issues = result.issues
      if (!Array.isArray(issues)) return 'issues is not an array'
      for (const issue of issues) {
        if (!isPlain(issue) || !exactKeys(issue, ['path', 'message'], [])) return 'malformed issue'
        if (typeof issue.path !== 'string' || typeof issue.message !== 'string') {
          return 'issue path or message is not a string'
        }
      }
      return undefined
    }
    case 'refused':
      if (typeof result.code !== 'string' || typeof result.message !== 'string') {
        return 'refused code or message is not a string'
      }
      if ('rev' in result && !Number.isInteger(result.rev)) return 'rev is not an integer'
      return undefined
    case 'needs_confirmation': {
      if (typeof result.confirmId !== 'string' || typeof result.summary !== 'string') {
        return 'confirmId or summary is not a string'
      }
      if (!('changes' in result)) return undefined
      if (!Array.isArray(result.changes)) return 'changes is not an array'
      for (const change of result.changes) {
        if (!isPlain(change) || !exactKeys(change, ['path'], ['before', 'after'])) {
          return 'malformed change'
        }
      }
      return undefined
    }
    case 'cancelled':
      return ['operator', 'signal', 'policy'].includes(result.by as string)
        ? undefined
        : `cancelled by ${String(result.by)}`
    case 'error':
      return typeof result.message === 'string' ? undefined : 'error message is not a string'
    default:
      return undefined
  }
}

/** Whether every object reachable through own properties is frozen. */
export function isDeepFrozen(value: unknown, seen = new Set<unknown>()): boolean {
  if (value === null || typeof value !== 'object' || seen.has(value)) return true
  seen.add(value)
  if (!Object.isFrozen(value)) return false
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key)
    if (descriptor && 'value' in descriptor && !isDeepFrozen(descriptor.value, seen)) return false
  }
  return true
}

/** Whether `structuredClone` accepts the value. */
export function isCloneable(value: unknown): boolean {
  try {
    structuredClone(value)
    return true
  } catch {
    return false
  }
}

/** Every problem of a result that left `tm.call` (shape, frozen, cloneable), or `undefined`. */
export function resultProblem(result: unknown): string | undefined {
  const shape = shapeProblem(result)
  if (shape) return shape
  if (!isDeepFrozen(result)) return 'not deep-frozen'
  if (!isCloneable(result)) return 'not structured-cloneable'
  return undefined
}

/** The own property names of the built-in prototypes, to see that nothing was added to them. */
export function prototypeSnapshot(): string {
  const names = (o: object) => Reflect.ownKeys(o).map(String).sort().join(',')
  return [Object.prototype, Array.prototype, Function.prototype].map(names).join('|')
}
