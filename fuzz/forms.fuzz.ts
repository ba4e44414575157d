import fc from 'fast-check'
import { it } from 'vitest'
import { z } from 'zod'
import { createToolmark, type FieldChange, type ToolResult } from '@toolmark/core'
import { createFormTools, type FillResult } from '@toolmark/core/forms'
import { getIn, leaves, memoryForm, overlaps, same } from './support/memoryForm'
import { prototypeSnapshot, resultProblem } from './support/results'
import { Tally, describe, seedFor } from './support/row'

/** Forms a property run fills one to three times. */
const FILL_FORMS = 5_000
const UNDO_RUNS = 2_000

/** Every password the agent sends starts with this: it must never show in a result or event. */
const SECRET = 'pw-secret-'

const item = z.object({
  product: z.string().min(1),
  qty: z.number().int().min(1),
  tags: z.array(z.string()),
})
const schema = z.object({
  title: z.string().min(1),
  priority: z.enum(['low', 'normal', 'high']),
  estimate: z.number().int().min(0).optional(),
  urgent: z.boolean(),
  note: z.string().nullable(),
  customer: z.object({
    name: z.string(),
    email: z.email().or(z.literal('')),
    address: z.object({
      city: z.string(),
      zip: z
        .string()
        .regex(/^\d{5}$/)
        .or(z.literal('')),
    }),
  }),
  items: z.array(item),
  password: z.string(),
})

const defaultsWith = (items: unknown[]) => ({
  title: '',
  priority: 'normal',
  urgent: false,
  note: null,
  customer: { name: '', email: '', address: { city: '', zip: '' } },
  items,
  password: '',
})

/** A registry with the form's tools, recording every event a listener would see. */
function setup(items: unknown[]) {
  const tm = createToolmark({ dev: false })
  const form = memoryForm(defaultsWith(items), [
    { path: 'password', label: 'Password', element: { type: 'password' } },
  ])
  createFormTools(tm, form.adapter, { name: 'ticket', description: 'A ticket', schema })
  const seen: unknown[] = []
  for (const type of ['call', 'result', 'undo', 'confirm'] as const) {
    tm.events.on(type, (event) => seen.push(event))
  }
  return { tm, form, seen }
}

// --- what an agent sends ---------------------------------------------------------------------

const word = fc.string({ maxLength: 6 })
const secret = fc.nat(999).map((n) => `${SECRET}${n}`)
const validItem = fc.record({
  product: fc.constantFrom('Paper', 'Toner', 'Drum'),
  qty: fc.integer({ min: 1, max: 5 }),
  tags: fc.array(word, { maxLength: 2 }),
})
/** An item of the right shape whose values may break the schema (empty, zero, wrong type). */
const anyItem = fc.record(
  {
    product: fc.oneof(fc.constantFrom('Paper', ''), word, fc.constant(null)),
    qty: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constantFrom(0, -1, 1.5, 'x')),
    tags: fc.oneof(fc.array(word, { maxLength: 2 }), fc.constant('x')),
  },
  { requiredKeys: [] },
)

const validValues = fc.record(
  {
    title: fc.constantFrom('Printer jammed', 'Login broken'),
    priority: fc.constantFrom('low', 'normal', 'high'),
    estimate: fc.nat(10),
    urgent: fc.boolean(),
    note: fc.oneof(word, fc.constant(null)),
    customer: fc.record(
      {
        name: word,
        email: fc.constantFrom('ada@example.com', ''),
        address: fc.record({ city: word, zip: fc.constantFrom('12345', '') }, { requiredKeys: [] }),
      },
      { requiredKeys: [] },
    ),
    items: fc.oneof(
      fc.array(validItem, { maxLength: 3 }),
      fc.record({ $append: fc.array(validItem, { minLength: 1, maxLength: 2 }) }),
      fc.record({ $remove: fc.array(fc.nat(2), { minLength: 1, maxLength: 2 }) }),
    ),
    password: secret,
  },
  { requiredKeys: [] },
)

/** Declared fields only, with values the form's schema may refuse (types, formats, bounds). */
const wrongValues = fc.record(
  {
    title: fc.oneof(fc.constantFrom('Printer jammed', ''), word, fc.constant(null), fc.constant(7)),
    priority: fc.constantFrom('low', 'high', 'urgent', 3, null),
    estimate: fc.oneof(fc.nat(10), fc.constantFrom(-1, 1.5, 'x', null, Number.NaN)),
    urgent: fc.oneof(fc.boolean(), fc.constantFrom('yes', null)),
    note: fc.oneof(word, fc.constant(null), fc.constant(5)),
    customer: fc.oneof(
      fc.constantFrom(null, 'x', []),
      fc.record(
        {
          name: fc.oneof(word, fc.constant(null)),
          email: fc.constantFrom('ada@example.com', '', 'not-an-email', null, 4),
          address: fc.oneof(
            fc.constantFrom(null, []),
            fc.record(
              { city: word, zip: fc.constantFrom('12345', '1234', '', 12345) },
              { requiredKeys: [] },
            ),
          ),
        },
        { requiredKeys: [] },
      ),
    ),
    items: fc.oneof(
      fc.constantFrom(null, 'x'),
      fc.array(anyItem, { maxLength: 3 }),
      fc.record({ $append: fc.array(anyItem, { minLength: 1, maxLength: 2 }) }),
      fc.record({ $remove: fc.array(fc.nat(4), { minLength: 1, maxLength: 2 }) }),
    ),
    password: fc.oneof(secret, fc.constant(null), fc.constant(3)),
  },
  { requiredKeys: [] },
)

/** Where a fill can go wrong before any value is looked at: paths, operations, shapes. */
const misplaced = fc.constantFrom<[string[], string, unknown]>(
  [[], 'nope', 'x'],
  [[], 'customer.name', 'x'],
  [[], '__proto__', { polluted: true }],
  [[], 'constructor', { prototype: { polluted: true } }],
  [[], 'prototype', { polluted: true }],
  [['customer'], 'password', `${SECRET}misplaced`],
  [['customer'], '__proto__', { polluted: true }],
  [['customer', 'address'], 'constructor', { prototype: { polluted: true } }],
  [['customer'], '$append', []],
  [[], 'items', { $push: [] }],
  [[], 'items', { $append: 'x' }],
  [[], 'items', { $append: [], $remove: [] }],
  [[], 'items', { $append: [{ product: 'Paper', qty: 1, tags: [], password: `${SECRET}item` }] }],
  [[], 'items', { $append: [{ product: 'Paper', qty: 1, tags: { $append: ['x'] } }] }],
  [[], 'items', { $append: { $append: [{ cvc: 1 }] } }],
  [[], 'items', { $remove: [-1, 1.5, 'x'] }],
  [[], 'password', { $append: [`${SECRET}op`] }],
)
const hostileValues = fc.tuple(validValues, misplaced).map(([values, [at, key, value]]) => {
  const out = JSON.parse(JSON.stringify(values)) as Record<string, any>
  let target = out
  for (const segment of at) {
    if (target[segment] === null || typeof target[segment] !== 'object') target[segment] = {}
    target = target[segment]
  }
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  })
  return out
})

const fillInput = fc.oneof(
  { weight: 5, arbitrary: fc.record({ values: validValues, overwrite: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ values: wrongValues, overwrite: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ values: hostileValues, overwrite: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.record({ Values: validValues }),
      fc.record({ values: validValues, extra: word }),
      fc.record({ values: validValues, overwrite: fc.constantFrom('yes', 1, null) }),
      fc.record({ values: fc.constantFrom(null, [], 'x') }),
      fc.anything({ maxDepth: 3 }),
    ),
  },
)

/** A person's edit: a leaf of the form (by position in its leaves) and a new value. */
const edit = fc.record({ pick: fc.nat(), value: fc.oneof(word, fc.integer({ min: 1, max: 9 })) })

/** A new value of the same kind as `current`, different from it. */
function editedValue(current: unknown, given: string | number): unknown {
  if (typeof current === 'boolean') return !current
  if (typeof current === 'number') return current + (typeof given === 'number' ? given : 1)
  if (Array.isArray(current)) return [...current, `user-${given}`]
  return `${String(current ?? '')}user-${given}`
}

/**
 * The user edits up to `edits.length` leaves of the form, each once and none inside another (so
 * every edit leaves a value different from what was there); returns what they typed where.
 */
function userEdits(
  form: ReturnType<typeof memoryForm>,
  edits: { pick: number; value: string | number }[],
) {
  const typed = new Map<string, unknown>()
  for (const e of edits) {
    const paths = leaves(form.values).filter((p) => p !== '')
    const path = paths[e.pick % paths.length]
    if ([...typed.keys()].some((earlier) => overlaps(earlier, path))) continue
    const value = editedValue(getIn(form.values, path), e.value)
    form.type(path, value)
    typed.set(path, value)
  }
  return typed
}

/** Leaves whose value differs between two forms. */
function differing(before: unknown, after: unknown): string[] {
  const paths = new Set([...leaves(before), ...leaves(after)])
  return [...paths].filter((p) => !same(getIn(before, p), getIn(after, p)))
}

const isNoValue = (v: unknown) => v === undefined || v === null || v === ''
const atOrBelow = (path: string, ancestor: string) =>
  path === ancestor || path.startsWith(`${ancestor}.`)

it('a fill that is not ok writes nothing; an ok fill writes exactly what it reports', async (context) => {
  const seed = seedFor('fills')
  const tally = new Tally(seed)
  const counts = { ok: 0, notOk: 0, leaks: 0 }
  const prototypes = prototypeSnapshot()

  await fc.assert(
    fc.asyncProperty(
      fc.array(validItem, { maxLength: 2 }),
      fc.array(edit, { maxLength: 2 }),
      fc.array(fillInput, { minLength: 1, maxLength: 3 }),
      async (items, edits, fills) => {
        const { tm, form, seen } = setup(items)
        const typed = userEdits(form, edits)
        for (const input of fills) {
          tally.runs++
          const before = structuredClone(form.values)
          const what = () => `fill ${describe(input)} over ${describe(before)}`
          const writes = form.writes.length
          let result: ToolResult
          try {
            result = await tm.call('ticket.fill', input)
          } catch (error) {
            tally.threw(what(), error)
            continue
          }
          const problem = resultProblem(result)
          tally.check(problem === undefined, () => `${what()} → ${problem}`)
          const after = form.values
          if (result.status !== 'ok') {
            counts.notOk++
            tally.check(
              same(before, after) && form.writes.length === writes,
              () =>
                `${what()} ended ${result.status} but wrote ${describe(differing(before, after))}`,
            )
            continue
          }
          counts.ok++
          const { changes, skipped } = result.data as FillResult
          tally.check(form.writes.length - writes <= 1, () => `${what()} wrote in several steps`)
          for (const path of differing(before, after)) {
            tally.check(
              changes.some((c: FieldChange) => atOrBelow(path, c.path)),
              () => `${what()} changed ${path} without reporting it`,
            )
          }
          for (const c of changes) {
            if (c.after === '[redacted]') continue
            const now = getIn(after, c.path)
            tally.check(
              'after' in c ? same(now, c.after) : isNoValue(now),
              () => `${what()} reports ${describe(c)} but ${c.path} holds ${describe(now)}`,
            )
          }
          for (const s of skipped) {
            tally.check(
              same(getIn(before, s.path), getIn(after, s.path)),
              () => `${what()} wrote skipped ${s.path}`,
            )
          }
          const overwrite = (input as { overwrite?: unknown }).overwrite === true
          for (const [path, value] of [...typed]) {
            if (overwrite) {
              // The agent was told to overwrite: from now on the value there is the agent's.
              if (changes.some((c) => overlaps(c.path, path))) typed.delete(path)
              continue
            }
            // Appending leaves the items the user has in place.
            const now = getIn(after, path)
            const kept = Array.isArray(value)
              ? Array.isArray(now) && same(now.slice(0, value.length), value)
              : same(now, value)
            tally.check(kept, () => `${what()} overwrote the user's ${path} with ${describe(now)}`)
          }
        }
        const leaked = describe(seen).includes(SECRET)
        if (leaked) counts.leaks++
        tally.check(
          !leaked,
          () => `a password showed in an event or result: ${describe(seen).slice(0, 400)}`,
        )
      },
    ),
    { numRuns: FILL_FORMS, seed },
  )
  tally.check(prototypeSnapshot() === prototypes, () => 'a built-in prototype changed')

  const row = tally.report(context, {
    property: 'invalid fills (a form with nested objects and arrays)',
    unit: 'fills',
    holds: `0 partial writes: ${counts.notOk.toLocaleString('en-US')} fills not ok left the form untouched; ${counts.ok.toLocaleString('en-US')} ok fills wrote only what they report and kept user edits; 0 passwords in results or events`,
  })
  if (row.throws + row.violations > 0) throw new Error(row.examples.join('\n'))
})

it('undo after later user edits restores only what nobody touched since', async (context) => {
  const seed = seedFor('undo')
  const tally = new Tally(seed)
  const counts = { undone: 0, kept: 0, restored: 0, notApplicable: 0 }

  await fc.assert(
    fc.asyncProperty(
      fc.array(validItem, { maxLength: 2 }),
      fc.record({ values: validValues }),
      fc.array(edit, { minLength: 1, maxLength: 4 }),
      fc.option(fc.record({ values: validValues }), { freq: 2 }),
      async (items, first, edits, second) => {
        try {
          const { tm, form } = setup(items)
          const callIds: string[] = []
          tm.events.on('call', (event) => callIds.push(event.callId))
          const start = structuredClone(form.values)
          const filled = await tm.call('ticket.fill', first)
          if (filled.status !== 'ok' || (filled.data as FillResult).changes.length === 0) {
            counts.notApplicable++
            return
          }
          tally.runs++
          const wrote = (filled.data as FillResult).changes.map((c) => c.path)
          const typed = userEdits(form, edits)
          let later: string[] = []
          if (second) {
            const again = await tm.call('ticket.fill', second)
            if (again.status === 'ok') later = (again.data as FillResult).changes.map((c) => c.path)
          }
          const beforeUndo = structuredClone(form.values)
          const undone = await tm.undo(callIds[0])
          const what = () =>
            `fill ${describe(first)}, user ${describe([...typed])}, fill ${describe(second)} → undo ${describe(undone)}`
          const problem = resultProblem(undone)
          tally.check(
            problem === undefined && undone.status === 'ok',
            () => `${what()}: ${problem}`,
          )
          counts.undone++
          const after = form.values
          for (const [path, value] of typed) {
            // The later fill does not overwrite (no `overwrite`), but it may append to a list
            // the user edited: the user's items then stay first.
            const appended = later.includes(path) && Array.isArray(value)
            const holds = (now: unknown) =>
              appended
                ? Array.isArray(now) && same(now.slice(0, value.length), value)
                : same(now, value)
            const kept = holds(getIn(beforeUndo, path)) && holds(getIn(after, path))
            const now = getIn(after, path)
            if (tally.check(kept, () => `${what()}: the user's ${path} became ${describe(now)}`)) {
              counts.kept++
            }
          }
          for (const path of wrote) {
            const touched =
              [...typed.keys()].some((p) => overlaps(p, path)) ||
              later.some((p) => overlaps(p, path))
            if (touched) continue
            counts.restored++
            tally.check(
              same(getIn(after, path), getIn(start, path)),
              () => `${what()}: ${path} was not restored (${describe(getIn(after, path))})`,
            )
          }
          const twice = await tm.undo(callIds[0])
          tally.check(
            twice.status === 'refused' && twice.code === 'undo_unavailable',
            () => `a second undo answered ${describe(twice)}`,
          )
        } catch (error) {
          tally.threw('undo run', error)
        }
      },
    ),
    { numRuns: UNDO_RUNS, seed },
  )

  const row = tally.report(context, {
    property: 'undo after later user edits',
    unit: 'undos',
    holds: `0 user edits lost: ${counts.kept.toLocaleString('en-US')} edits kept; ${counts.restored.toLocaleString('en-US')} untouched fields restored; every second undo refused`,
  })
  if (row.throws + row.violations > 0) throw new Error(row.examples.join('\n'))
})
