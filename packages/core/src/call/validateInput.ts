import { defineOwn, isPlainObject, isThenable } from '../base/guards'
import { deepFreeze, invalid, toolFailed, type Checked } from '../base/results'
import { validateWith, type Validated } from '../schema/standardSchema'
import type { RegistryInternals, ToolRecord } from '../tool/toolRecord'

export type { Checked } from '../base/results'

const conclude = (checked: Validated<unknown>): Checked =>
  'issues' in checked ? { result: invalid(checked.issues) } : checked

/**
 * Step 4: the input against the tool's Standard Schema, synchronously when the schema is. A tool
 * without `input` accepts only `{}` or nothing (and its run receives `undefined`). A validator
 * that throws is the tool failing: reported as `validator_threw`, answered "Tool failed".
 * `source.callId` is read only to report that.
 */
export function validateInput(
  internals: RegistryInternals,
  record: ToolRecord,
  input: unknown,
  source: { readonly callId: string },
): Checked | Promise<Checked> {
  const schema = record.def.input
  if (!schema) {
    if (input === undefined || (isPlainObject(input) && Object.keys(input).length === 0)) {
      return { value: undefined }
    }
    return { result: invalid([{ path: '', message: 'This tool takes no input: send {}' }]) }
  }
  try {
    const checked = validateWith(schema, input)
    return isThenable(checked)
      ? Promise.resolve(checked).then(conclude, (cause: unknown) =>
          threw(internals, record, source, cause),
        )
      : conclude(checked)
  } catch (cause) {
    return threw(internals, record, source, cause)
  }
}

/**
 * A validator that throws is the tool failing. Not a closure made on every call: a call whose
 * validator never throws allocates nothing for it.
 */
function threw(
  internals: RegistryInternals,
  record: ToolRecord,
  source: { readonly callId: string },
  cause: unknown,
): Checked {
  internals.toolError('validator_threw', { record, callId: source.callId }, cause)
  return { result: toolFailed() }
}

/** How deep `frozenInput` copies: deeper than this the input is refused, not a stack overflow. */
const COPY_DEPTH = 1_000

const isBlob = (value: object): boolean => typeof Blob !== 'undefined' && value instanceof Blob
const isFileList = (value: object): boolean =>
  typeof FileList !== 'undefined' && value instanceof FileList

/**
 * A deep copy of an input, frozen: what a call's confirmation shows and what runs once it is
 * approved, so a caller that changes the object it passed after the person saw it changes
 * nothing (an in-page caller keeps its reference; a `z.any()` or record part of a schema's
 * output is still that object). Like `structuredClone`, it copies plain objects (their
 * prototype, `null` included, kept), arrays, `Date`, `RegExp`, `Map`, `Set`, buffers and typed
 * arrays, and keeps shared and cyclic references as such; unlike it, a `Blob`, a `File` or a
 * `FileList` (immutable) is kept as it is, and so is a function or an instance of the app's own
 * class (only the app knows how to copy it; it is not ours to freeze). Typed arrays and buffers
 * are copied but cannot be frozen, and a frozen `Map`, `Set` or `Date` still changes through its
 * methods: only the run holds those copies. A getter that throws, or an input deeper than
 * `COPY_DEPTH`, answers `invalid`.
 */
export function frozenInput(input: unknown): Checked {
  try {
    return { value: copyNode(input, new Map(), 0) }
  } catch {
    return {
      result: deepFreeze(
        invalid([{ path: '', message: 'The input could not be copied for its confirmation' }]),
      ),
    }
  }
}

function copyNode(value: unknown, seen: Map<object, unknown>, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value
  if (seen.has(value)) return seen.get(value)
  if (depth > COPY_DEPTH) throw new RangeError('The input is too deep to copy')
  if (isBlob(value) || isFileList(value)) return value
  if (Array.isArray(value)) {
    const list = value as unknown[]
    const out = new Array<unknown>(list.length)
    seen.set(value, out)
    for (let i = 0; i < list.length; i++) out[i] = copyNode(list[i], seen, depth + 1)
    return Object.freeze(out)
  }
  const proto: unknown = Object.getPrototypeOf(value)
  if (proto === Object.prototype || proto === null) {
    const out: Record<string, unknown> = proto === null ? Object.create(null) : {}
    seen.set(value, out)
    for (const key of Object.keys(value)) {
      const item = copyNode((value as Record<string, unknown>)[key], seen, depth + 1)
      // Own data, never a prototype: `__proto__` is a key like any other here.
      defineOwn(out, key, item)
    }
    return Object.freeze(out)
  }
  if (value instanceof Date) return remember(seen, value, Object.freeze(new Date(value.getTime())))
  if (value instanceof RegExp) return remember(seen, value, Object.freeze(new RegExp(value)))
  if (value instanceof Map) {
    const out = new Map<unknown, unknown>()
    seen.set(value, out)
    for (const [k, v] of value) out.set(copyNode(k, seen, depth + 1), copyNode(v, seen, depth + 1))
    return Object.freeze(out)
  }
  if (value instanceof Set) {
    const out = new Set<unknown>()
    seen.set(value, out)
    for (const item of value) out.add(copyNode(item, seen, depth + 1))
    return Object.freeze(out)
  }
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    return remember(seen, value, structuredClone(value))
  }
  return value
}

function remember<T>(seen: Map<object, unknown>, from: object, copy: T): T {
  seen.set(from, copy)
  return copy
}
