/** Jaccard similarity at or above which two descriptions are near-identical. */
const OVERLAP = 0.8

const similarity = (a: ReadonlySet<string>, b: ReadonlySet<string>) => {
  let shared = 0
  for (const w of a) if (b.has(w)) shared++
  return shared / (a.size + b.size - shared)
}

/**
 * For each tool, the first later tool (in name order) described near-identically, if any.
 *
 * Comparing every pair is quadratic: on the 5,000 tools of test/lint/scale.test.ts that pass
 * took 3.2–4.9 s (two cores) and reported 3.1 million pairs. A prefix filter compares only pairs
 * that can reach the threshold: with each bag's words ordered rarest first, two bags with
 * similarity ≥ t share a word among the first `size - ceil(t × size) + 1` words of each. The
 * whole lint of that test now takes about 0.2 s; test/lint/firstOverlaps.test.ts checks the
 * filter against every pair.
 */
export function firstOverlaps(
  bags: readonly ReadonlySet<string>[],
): ({ j: number; similarity: number } | undefined)[] {
  const frequency = new Map<string, number>()
  for (const bag of bags) for (const w of bag) frequency.set(w, (frequency.get(w) ?? 0) + 1)
  const rarestFirst = (x: string, y: string) =>
    frequency.get(x)! - frequency.get(y)! || (x < y ? -1 : x > y ? 1 : 0)
  // Word → later tools whose prefix holds it, the latest first (tools are visited backwards).
  const later = new Map<string, number[]>()
  const found: ({ j: number; similarity: number } | undefined)[] = bags.map(() => undefined)
  for (let i = bags.length - 1; i >= 0; i--) {
    const bag = bags[i]
    if (bag.size < 3) continue
    // The epsilon keeps a float like 12.000000000000002 from shortening the prefix.
    const prefix = [...bag]
      .sort(rarestFirst)
      .slice(0, bag.size - Math.ceil(OVERLAP * bag.size - 1e-9) + 1)
    let best: { j: number; similarity: number } | undefined
    for (const w of prefix) {
      const tools = later.get(w) ?? []
      // From the end: nearest tools first, so the first match is the earliest for this word.
      for (let k = tools.length - 1; k >= 0; k--) {
        const j = tools[k]
        if (best && j >= best.j) break
        const s = similarity(bag, bags[j])
        if (s >= OVERLAP) {
          best = { j, similarity: s }
          break
        }
      }
    }
    found[i] = best
    for (const w of prefix) {
      const tools = later.get(w)
      if (tools) tools.push(i)
      else later.set(w, [i])
    }
  }
  return found
}
