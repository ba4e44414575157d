import { REDACTED } from '@toolmark/core'
import {
  inputLeaves,
  readablePath,
  summarySaysAll,
  valueRows,
} from '../src/confirm-dialog/confirmDialogRows'

describe('the rows of a confirmation', () => {
  it('lists nothing for an absent or empty input', () => {
    expect(valueRows(undefined, undefined, undefined)).toEqual([])
    expect(valueRows({}, undefined, undefined)).toEqual([])
  })

  it('lists an input that is a plain value as one row at the root path', () => {
    expect(valueRows('hello', undefined, undefined)).toEqual([
      { path: '', label: '', value: 'hello' },
    ])
  })

  it('flattens nested objects to dot paths in the input order', () => {
    expect(inputLeaves({ b: 1, a: { d: true, c: null } })).toEqual([
      ['b', 1],
      ['a.d', true],
      ['a.c', null],
    ])
  })

  it('keeps a list of plain values as one leaf and indexes arrays of objects', () => {
    expect(inputLeaves({ tags: ['a', 'b'], lines: [{ sku: 'X' }, 'loose'], none: [] })).toEqual([
      ['tags', ['a', 'b']],
      ['lines.0.sku', 'X'],
      ['lines.1', 'loose'],
      ['none', []],
    ])
  })

  it('stops at a cycle or past twelve levels instead of recursing for ever', () => {
    const loop: Record<string, unknown> = { name: 'loop' }
    loop.self = loop
    expect(inputLeaves(loop)).toEqual([
      ['name', 'loop'],
      ['self', loop],
    ])
    let deep: unknown = 'bottom'
    for (let i = 0; i < 50; i++) deep = { d: deep }
    const [[path]] = inputLeaves(deep)
    expect(path.split('.')).toHaveLength(12)
  })

  it('reads a path as words: camelCase, snake_case and positions counted from 1', () => {
    expect(readablePath('requester.dueDate')).toBe('Requester › Due date')
    expect(readablePath('lines.0.unit_price')).toBe('Lines 1 › Unit price')
    expect(readablePath('ID')).toBe('Id')
  })

  it('names a row by its label first, else by its readable path', () => {
    const rows = valueRows({ to: 'x', cc: 'y' }, undefined, { to: 'Recipient' })
    expect(rows.map((row) => row.label)).toEqual(['Recipient', 'Cc'])
  })

  it('puts a change in place of the leaf it covers and appends changes the input lacks', () => {
    const rows = valueRows(
      { title: 'New', address: { city: 'Lyon', zip: '69001' }, note: 'same' },
      [
        { path: 'status', before: 'draft', after: 'open' },
        { path: 'address', before: { city: 'Nice' }, after: { city: 'Lyon', zip: '69001' } },
        { path: 'title', before: 'Old', after: 'New' },
      ],
      undefined,
    )
    expect(rows.map((row) => [row.path, row.change ? 'changed' : row.value])).toEqual([
      ['title', 'changed'],
      ['address', 'changed'],
      ['note', 'same'],
      ['status', 'changed'],
    ])
  })

  it('marks every row changed when every value sent is a change', () => {
    const rows = valueRows({ email: 'a@b.c' }, [{ path: 'email', before: 'x', after: 'a@b.c' }], {})
    expect(rows.every((row) => row.change)).toBe(true)
  })
})

describe('valueRows with agent-filled paths', () => {
  it('marks the rows at or below a path an agent wrote, and no other', () => {
    const rows = valueRows(
      { title: 'Printer', customer: { name: 'Ada', email: 'a@b.c' }, note: 'x' },
      [{ path: 'note', before: '', after: 'x' }],
      undefined,
      ['title', 'customer.name'],
    )

    expect(rows.filter((r) => r.agent).map((r) => r.path)).toEqual(['title', 'customer.name'])
  })
})

describe('summarySaysAll', () => {
  const says = (input: unknown, summary: string, agentFilled?: string[]) =>
    summarySaysAll(valueRows(input, undefined, undefined, agentFilled), summary)

  it('holds when the one value sent, a number or a text, stands whole in the summary', () => {
    expect(says({ id: 7 }, 'Close ticket #7')).toBe(true)
    expect(says({ id: 7 }, 'Close ticket #7 “Printer jammed”')).toBe(true)
    expect(says({ id: 7 }, 'Delete ticket 7 for good')).toBe(true)
    expect(says({ query: 'paper jam' }, 'Search for “paper jam”')).toBe(true)
    expect(says(7, 'Close ticket #7')).toBe(true)
  })

  it('does not hold for a value found only inside a longer word or number', () => {
    expect(says({ id: 7 }, 'Close ticket #17')).toBe(false)
    expect(says({ id: 7 }, 'Close ticket #72')).toBe(false)
    expect(says({ id: 7 }, 'Close ticket 7b')).toBe(false)
    expect(says({ amount: 7 }, 'Refund 7.50 EUR')).toBe(false)
    expect(says({ amount: 50 }, 'Refund 7.50 EUR')).toBe(false)
    expect(says({ team: 'ops' }, 'Move the ticket to devops')).toBe(false)
  })

  it('does not hold for two values or more, even when the summary names each', () => {
    expect(says({ id: 7, priority: 'urgent' }, 'Set ticket #7 to urgent')).toBe(false)
  })

  it('does not hold for a value the summary lacks, a secret, an empty value, a list or a flag', () => {
    expect(says({ id: 7 }, 'Close ticket')).toBe(false)
    expect(says({ pin: REDACTED }, `Enter the pin ${REDACTED}`)).toBe(false)
    expect(says({ note: '' }, 'Add an empty note')).toBe(false)
    expect(says({ note: ' ' }, 'Add a note:  ')).toBe(false)
    expect(says({ tags: ['a'] }, 'Tag it a')).toBe(false)
    expect(says({ notify: true }, 'Close it, notify: true')).toBe(false)
    expect(says({ id: Number.NaN }, 'Close ticket NaN')).toBe(false)
  })

  it('does not hold for a value an agent filled in or a change, whose marks the table carries', () => {
    expect(says({ title: 'Printer' }, 'Create “Printer”', ['title'])).toBe(false)
    const changed = valueRows({ id: 7 }, [{ path: 'id', before: 6, after: 7 }], undefined)
    expect(summarySaysAll(changed, 'Move to ticket #7')).toBe(false)
  })
})
