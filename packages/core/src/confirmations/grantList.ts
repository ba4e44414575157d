import { deepFreeze, invalid } from '../base/results'
import { isObject } from '../base/guards'
import { createExpiryTimer } from '../base/expiryTimer'
import { randomId } from '../base/ids'
import { inputJsonSchema } from '../schema/jsonSchema'
import { redactValue } from '../redaction/redact'
import type { ToolRecord } from '../tool/toolRecord'
import type { Caller, Grant } from '../types'
import { declaresPath, pinKey, valueAt } from './grantPins'
import type { GrantCheck } from './confirmation'
import { grantCeiling } from './grantCeiling'

/** One pinned path: its value's canonical key, for matching. */
interface Pin {
  readonly path: string
  readonly key: string
}

/** A grant as the list keeps it: the tool record (not its name), so a new tool of the same name is never covered. */
interface Held {
  readonly id: string
  readonly record: ToolRecord
  readonly caller: Caller
  /** A tour step's starter: the grant covers only that starter's tour steps. */
  readonly actingFor: Caller | undefined
  readonly pins: readonly Pin[]
  readonly createdAt: number
  expiresAt: number | undefined
  uses: number
  /** The redacted pins, as listed. */
  readonly shown: Grant['pins']
  /** What `grants()` lists, rebuilt when `uses` or `expiresAt` change. */
  view: Grant
}

/** What a grant is made of, read from the approved input. */
export interface GrantRequest {
  readonly record: ToolRecord
  readonly caller: Caller
  readonly actingFor: Caller | undefined
  readonly pins: readonly string[]
  /** The input that runs: the pinned values are read from it. */
  readonly input: unknown
  /** Lifetime in ms; `undefined` for the session. */
  readonly ms: number | undefined
}

/** The grants a person gave, in memory: a reload ends them all. */
export interface GrantList {
  /** Why this caller may not be granted this tool (the ceilings), `undefined` when it may. */
  ceiling: typeof grantCeiling
  /**
   * Makes a grant, or extends the one that covers exactly the same calls (a second approval with
   * the same grant makes no second grant). `undefined` when a pinned value has no canonical form.
   */
  add(request: GrantRequest): string | undefined
  /**
   * Reads the grant asked with an approval of `record` by `caller` (past the ceilings): an
   * `invalid` naming the option, or how to make it from the input that will run.
   */
  read(
    record: ToolRecord,
    caller: Caller,
    actingFor: Caller | undefined,
    given: unknown,
  ): GrantCheck
  /** The live grant that covers this call, counted as used; `undefined` when none does. */
  use(
    record: ToolRecord,
    caller: Caller,
    actingFor: Caller | undefined,
    input: unknown,
  ): string | undefined
  list(): readonly Grant[]
  revoke(id: unknown): boolean
  /** Ends every grant `keep` says no to (its tool went away, the ceilings changed). */
  retain(keep: (record: ToolRecord, caller: Caller, actingFor: Caller | undefined) => boolean): void
}

const EMPTY: readonly Grant[] = Object.freeze([])

const view = (held: Held): Grant => {
  const grant: Grant = {
    id: held.id,
    tool: held.record.name,
    caller: held.caller,
    pins: held.shown,
    createdAt: held.createdAt,
    uses: held.uses,
  }
  if (typeof held.record.def.title === 'string') grant.title = held.record.def.title
  if (held.actingFor !== undefined) grant.actingFor = held.actingFor
  if (held.expiresAt !== undefined) grant.expiresAt = held.expiresAt
  return deepFreeze(grant)
}

const samePins = (a: readonly Pin[], b: readonly Pin[]) =>
  a.length === b.length && a.every((pin, i) => pin.path === b[i].path && pin.key === b[i].key)

/** What makes a grant list: `grants()` hands it to a registry's confirmation store. */
export type CreateGrantList = typeof createGrantList

const bad = (path: string, message: string) => ({
  result: deepFreeze(invalid([{ path, message }])),
})

/**
 * The list of grants, the one owner of their lifetimes: made with an approval, used by calls,
 * ended by revocation, expiry, or their tool or ceilings going away. Expiry is checked against the
 * clock whenever a grant is used; one timer (only while a timed grant lives) takes ended grants off
 * the list so presenters see them go.
 */
export function createGrantList(options: {
  clock: () => number
  /** The list changed: presenters re-read it. */
  changed: () => void
}): GrantList {
  const { clock } = options
  const held = new Map<string, Held>()
  let snapshot: readonly Grant[] = EMPTY

  const publish = () => {
    snapshot = held.size === 0 ? EMPTY : Object.freeze([...held.values()].map((h) => h.view))
    timer.schedule()
    options.changed()
  }

  const ended = (h: Held, at: number) => h.expiresAt !== undefined && h.expiresAt <= at

  const timer = createExpiryTimer({
    clock,
    earliest() {
      let earliest = Infinity
      for (const h of held.values())
        if (h.expiresAt !== undefined) earliest = Math.min(earliest, h.expiresAt)
      return earliest
    },
    due(at) {
      let removed = false
      for (const h of [...held.values()]) {
        if (ended(h, at)) removed = held.delete(h.id) || removed
      }
      if (removed) publish()
      else timer.schedule()
    },
  })

  const list: GrantList = {
    ceiling: grantCeiling,
    read(record, caller, actingFor, given) {
      if (!isObject(given)) return bad('grant', 'grant must be { for: "session" | { ms }, pins? }')
      const lifetime = given.for
      let ms: number | undefined
      if (lifetime !== 'session') {
        const n = isObject(lifetime) ? lifetime.ms : undefined
        if (typeof n !== 'number' || !(n > 0) || !Number.isFinite(n)) {
          return bad('grant.for', 'for must be "session" or { ms } with a positive number of ms')
        }
        ms = n
      }
      const pins = given.pins ?? []
      if (!Array.isArray(pins)) return bad('grant.pins', 'pins must be a list of input paths')
      const { input, inputSchema } = record.def
      const schema = inputJsonSchema(input, inputSchema, undefined).schema
      for (let i = 0; i < pins.length; i++) {
        const pin: unknown = pins[i]
        if (typeof pin !== 'string' || !declaresPath(schema, pin)) {
          return bad(`grant.pins.${i}`, `${JSON.stringify(pin)} is not a path the input declares`)
        }
      }
      return {
        make: (value: unknown) =>
          list.add({ record, caller, actingFor, pins: pins as string[], input: value, ms }) ??
          deepFreeze(
            invalid([{ path: 'grant.pins', message: 'A pinned value cannot be compared' }]),
          ),
      }
    },
    add({ record, caller, actingFor, pins: paths, input, ms }) {
      const pins: Pin[] = []
      for (const path of [...new Set(paths)].sort()) {
        const key = pinKey(valueAt(input, path))
        if (key === undefined) return undefined
        pins.push({ path, key })
      }
      const at = clock()
      const expiresAt = ms === undefined ? undefined : at + ms
      for (const h of held.values()) {
        if (
          h.record !== record ||
          h.caller !== caller ||
          h.actingFor !== actingFor ||
          !samePins(h.pins, pins) ||
          ended(h, at)
        ) {
          continue
        }
        // The same calls covered: the longer lifetime wins (the session outlives any time).
        if (h.expiresAt !== undefined && (expiresAt === undefined || expiresAt > h.expiresAt)) {
          h.expiresAt = expiresAt
          h.view = view(h)
          publish()
        }
        return h.id
      }
      const shown = deepFreeze(
        pins.map(({ path }) => ({
          path,
          value: redactValue(valueAt(input, path), record.sensitive, 64, path),
        })),
      )
      const grant: Held = {
        id: randomId('gr_'),
        record,
        caller,
        actingFor,
        pins,
        createdAt: at,
        expiresAt,
        uses: 0,
        shown,
        view: undefined as unknown as Grant,
      }
      grant.view = view(grant)
      held.set(grant.id, grant)
      publish()
      return grant.id
    },
    use(record, caller, actingFor, input) {
      const at = clock()
      let found: Held | undefined
      let removed = false
      for (const h of [...held.values()]) {
        if (ended(h, at)) {
          removed = held.delete(h.id) || removed
          continue
        }
        if (found || h.record !== record || h.caller !== caller || h.actingFor !== actingFor) {
          continue
        }
        if (h.pins.every((pin) => pinKey(valueAt(input, pin.path)) === pin.key)) found = h
      }
      if (found) {
        found.uses++
        found.view = view(found)
      }
      if (found || removed) publish()
      return found?.id
    },
    list: () => snapshot,
    revoke(id) {
      if (typeof id !== 'string' || !held.delete(id)) return false
      publish()
      return true
    },
    retain(keep) {
      let removed = false
      for (const h of [...held.values()]) {
        if (!keep(h.record, h.caller, h.actingFor)) removed = held.delete(h.id) || removed
      }
      if (removed) publish()
    },
  }
  return list
}
