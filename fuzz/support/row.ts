import type { TestContext } from 'vitest'

/** One line of the fuzz table: what a property ran and what it counted. */
export interface FuzzRow {
  /** What was fuzzed, for the table's first column. */
  property: string
  /** How many inputs (calls, messages, races, fills…) were tried. */
  runs: number
  /** What one run is (`calls`, `messages`, `races`…). */
  unit: string
  /** Runs that threw or rejected where nothing may (or crashed the receiver). */
  throws: number
  /** Runs that broke the property (each a counted outcome, not a stopped run). */
  violations: number
  /** What held, in a few words, with the figures that show it. */
  holds: string
  /** The property's own seed (derived from FUZZ_SEED and its name). */
  seed: number
  /** Wall-clock time of the property. */
  ms: number
  /** The first few violations, described, for whoever replays the seed. */
  examples: string[]
}

declare module 'vitest' {
  interface TaskMeta {
    fuzz?: FuzzRow
  }
}

/** The run's base seed (set by fuzz/vitest.config.ts). */
export function baseSeed(): number {
  const seed = Number(process.env.FUZZ_SEED)
  return Number.isInteger(seed) ? seed : 1
}

/** A property's own seed: the base seed mixed with its name, so properties are independent. */
export function seedFor(name: string): number {
  let h = baseSeed() ^ 0x9e3779b9
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193)
  return (h >>> 0) % 2_147_483_647
}

/** Counts outcomes of one property and keeps a few examples of what went wrong. */
export class Tally {
  runs = 0
  throws = 0
  violations = 0
  readonly examples: string[] = []
  readonly started = performance.now()
  constructor(readonly seed: number) {}

  /** A run that threw where it must not. */
  threw(what: string, error: unknown): void {
    this.throws++
    this.note(`threw: ${what}: ${describe(error)}`)
  }

  /** Counts a violation when `holds` is false; returns `holds`. */
  check(holds: boolean, what: () => string): boolean {
    if (!holds) {
      this.violations++
      this.note(what())
    }
    return holds
  }

  private note(text: string): void {
    if (this.examples.length < 5) this.examples.push(text.slice(0, 600))
  }

  /** Stores the row on the test, for the table reporter. */
  report(
    context: TestContext,
    row: { property: string; unit: string; holds: string; runs?: number },
  ): FuzzRow {
    const out: FuzzRow = {
      property: row.property,
      unit: row.unit,
      holds: row.holds,
      runs: row.runs ?? this.runs,
      throws: this.throws,
      violations: this.violations,
      seed: this.seed,
      ms: Math.round(performance.now() - this.started),
      examples: this.examples,
    }
    context.task.meta.fuzz = out
    return out
  }
}

/** A short, never-throwing description of any value, for violation notes. */
export function describe(value: unknown): string {
  try {
    if (value instanceof Error) return `${value.name}: ${value.message}`
    const text = JSON.stringify(value, (_key, v: unknown) =>
      typeof v === 'bigint' ? `${v}n` : typeof v === 'function' ? '[function]' : v,
    )
    return text === undefined ? String(value) : text
  } catch {
    try {
      return String(value)
    } catch {
      return '[unprintable]'
    }
  }
}

/** A small seeded generator, for choices made outside fast-check (who answers a confirmation). */
export function randomFrom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}
