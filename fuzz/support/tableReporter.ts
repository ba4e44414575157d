import type { Reporter, TestModule } from 'vitest/node'
import type { FuzzRow } from './row'

const thousands = (n: number) => n.toLocaleString('en-US')

/** `123 ms`, `4.5 s`, `2 min 3 s`. */
export function duration(ms: number): string {
  if (ms < 1_000) return `${ms} ms`
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1_000)} s`
}

/**
 * Prints the fuzz table once every property has run: one row per property, in file order, with
 * its counts; then the seed that replays the run. A property that stopped before reporting
 * (it crashed) is listed as such.
 */
export default class FuzzTableReporter implements Reporter {
  private readonly started = Date.now()
  constructor(private readonly seed: number) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const rows: (FuzzRow & { passed: boolean })[] = []
    const crashed: string[] = []
    const modules = [...testModules].sort((a, b) => a.moduleId.localeCompare(b.moduleId))
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const row = test.meta().fuzz
        const passed = test.result().state === 'passed'
        if (row) rows.push({ ...row, passed })
        else if (test.result().state !== 'skipped') crashed.push(test.fullName)
      }
    }
    const lines = [
      '',
      '| property | runs | throws | violations | what holds | time |',
      '| --- | ---: | ---: | ---: | --- | ---: |',
      ...rows.map(
        (r) =>
          `| ${r.passed ? '' : 'FAILED: '}${r.property} | ${thousands(r.runs)} ${r.unit} | ${thousands(r.throws)} | ${thousands(r.violations)} | ${r.holds} | ${duration(r.ms)} |`,
      ),
      '',
    ]
    for (const r of rows) {
      if (r.examples.length === 0 && r.passed) continue
      lines.push(`${r.property} (seed ${r.seed}):`)
      for (const example of r.examples) lines.push(`  - ${example}`)
      if (r.examples.length === 0) lines.push('  - the property failed; see the test output above')
    }
    for (const name of crashed) lines.push(`${name}: stopped before it could report`)
    const failed = rows.filter((r) => !r.passed || r.violations > 0 || r.throws > 0).length
    lines.push(
      `${rows.length} properties, ${failed + crashed.length} failing · total ${duration(Date.now() - this.started)} · FUZZ_SEED=${this.seed} (replay: FUZZ_SEED=${this.seed} npm run fuzz)`,
      '',
    )
    process.stdout.write(lines.join('\n'))
  }
}
