import fc from 'fast-check'
import { firstOverlaps } from '../../src/lint/firstOverlaps'

/** The same answer by comparing every pair: the first later bag at 80 % or more, if any. */
function everyPair(bags: readonly ReadonlySet<string>[]) {
  return bags.map((a, i) => {
    if (a.size < 3) return undefined
    for (let j = i + 1; j < bags.length; j++) {
      const b = bags[j]
      if (b.size < 3) continue
      let shared = 0
      for (const w of a) if (b.has(w)) shared++
      const similarity = shared / (a.size + b.size - shared)
      if (similarity >= 0.8) return { j, similarity }
    }
    return undefined
  })
}

describe('firstOverlaps', () => {
  it('finds for each bag the first later bag described alike, as comparing every pair does', () => {
    // A small vocabulary, so that many bags are alike and many just miss the threshold.
    const bag = fc
      .uniqueArray(fc.constantFrom(...'abcdefghijkl'.split('')), { maxLength: 12 })
      .map((words) => new Set(words))
    fc.assert(
      fc.property(fc.array(bag, { maxLength: 40 }), (bags) => {
        expect(firstOverlaps(bags)).toEqual(everyPair(bags))
      }),
      { numRuns: 500 },
    )
  })

  it('gives a group of identical bags one answer each, the next of the group', () => {
    const same = () => new Set(['open', 'tickets', 'queue', 'newest'])
    expect(firstOverlaps([same(), same(), same()]).map((o) => o?.j)).toEqual([1, 2, undefined])
  })
})
