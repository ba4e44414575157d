import { SESSION_MOVES } from '../src/ag-ui/agUiSessionState'
import type { StatusTable } from '../src/base/statusTable'
import { CONFIRMATION_MOVES } from '../src/confirmations/confirmation'
import { TOUR_MOVES } from '../src/tour/startTour'

/** Every (from, to) pair of a table's statuses. */
const pairs = <S extends string>(table: StatusTable<S>): [S, S][] => {
  const statuses = Object.keys(table.moves) as S[]
  return statuses.flatMap((from) => statuses.map((to): [S, S] => [from, to]))
}

describe.each([
  ['a confirmation', CONFIRMATION_MOVES as StatusTable<string>, 'A confirmation'],
  ['a tour', TOUR_MOVES as StatusTable<string>, 'A tour'],
  ['an AG-UI session', SESSION_MOVES as StatusTable<string>, 'An AG-UI session'],
])('the status table of %s', (_name, table, owner) => {
  it('throws on every move it does not list, naming it, and allows every move it lists', () => {
    let refused = 0
    for (const [from, to] of pairs(table)) {
      const listed = table.moves[from].includes(to) || (from === to && table.stays)
      if (listed) {
        expect(() => table.check(from, to)).not.toThrow()
      } else {
        refused++
        expect(() => table.check(from, to)).toThrow(
          `[toolmark] ${owner} cannot move from ${from} to ${to}`,
        )
      }
    }
    // Each table forbids something: a final status goes nowhere, or a start skips no step.
    expect(refused).toBeGreaterThan(0)
  })

  it('lists only its own statuses as targets', () => {
    const statuses = Object.keys(table.moves)
    for (const targets of Object.values(table.moves)) {
      for (const to of targets) expect(statuses).toContain(to)
    }
  })
})

it('a confirmation never stays put: ending twice is a bug, not a no-op', () => {
  expect(CONFIRMATION_MOVES.stays).toBe(false)
  expect(() => CONFIRMATION_MOVES.check('approved', 'approved')).toThrow(
    '[toolmark] A confirmation cannot move from approved to approved',
  )
  expect(() => CONFIRMATION_MOVES.check('pending', 'pending')).toThrow()
})
