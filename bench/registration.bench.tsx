/**
 * Registration churn and the re-renders it causes.
 *
 * 1. Mount and unmount 1,000 components that each call `useTool`, against the same components
 *    without it, interleaved in one run. Target: at most 1.3× the plain components' time.
 * 2. Mount 1,000 such components and let the page settle (a macrotask: the registry's coalesced
 *    revision and everything registration leaves for after the commit), against the plain
 *    components; the unmount is not timed. Peers' figures count this settle too.
 * 3. Mount and unmount 1,000 tools next to a sibling subtree that reads the registry
 *    (`useToolmark`, `useConfirmations`, `useAgentActivity`) and count the sibling's renders.
 *    Target: 0.
 *
 * Run (not part of `npm test`; the run fails if the sibling renders):
 *   NODE_ENV=production npx vitest bench --run --project react bench/registration.bench.tsx
 * Without NODE_ENV it measures React's development build. Ratios compare CPU time, which other
 * processes on a shared machine barely move; wall time is printed too.
 */
import { Profiler, useState, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { flushSync } from 'react-dom'
import { afterAll, bench, describe } from 'vitest'
import { createToolmark, ok } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import {
  ToolProvider,
  useAgentActivity,
  useConfirmations,
  useTool,
  useToolmark,
} from '@toolmark/react'

const COUNT = 1_000
const WARMUP = 10
const ROUNDS = 110

function PlainRow({ index }: { index: number }) {
  const [value, setValue] = useState(index)
  return (
    <li>
      row {index}: <button onClick={() => setValue(value + 1)}>{value}</button>
    </li>
  )
}

function ToolRow({ index }: { index: number }) {
  const [value, setValue] = useState(index)
  useTool({
    name: `row_${index}`,
    description: 'Increments this row',
    run: () => {
      setValue((v) => v + 1)
      return ok(value + 1)
    },
  })
  return (
    <li>
      row {index}: <button onClick={() => setValue(value + 1)}>{value}</button>
    </li>
  )
}

function Rows({ Row }: { Row: typeof PlainRow }) {
  const rows: ReactNode[] = []
  for (let i = 0; i < COUNT; i++) rows.push(<Row key={i} index={i} />)
  return <ul>{rows}</ul>
}

/** Renders synchronously: a sync render also flushes its effects, so registration is included. */
function mountAndUnmount(tm: Toolmark, Row: typeof PlainRow) {
  const container = document.createElement('div')
  const root = createRoot(container)
  flushSync(() =>
    root.render(
      <ToolProvider toolmark={tm}>
        <Rows Row={Row} />
      </ToolProvider>,
    ),
  )
  flushSync(() => root.unmount())
}

/** CPU time (user + system) of this process: unlike wall time, load from other processes on a
 * shared machine barely moves it. Wall time is kept too, for reference. */
const timings = {
  withTool: [] as number[],
  without: [] as number[],
  withToolWall: [] as number[],
  withoutWall: [] as number[],
}
/** Mount + settle (part 2), CPU time, per side. */
const settled = { withTool: [] as number[], without: [] as number[] }
const sibling = { renders: 0, cycles: 0 }

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}

function timed(cpu: number[], wall: number[], tm: Toolmark, Row: typeof PlainRow) {
  const startedWall = performance.now()
  const started = process.cpuUsage()
  mountAndUnmount(tm, Row)
  const used = process.cpuUsage(started)
  wall.push(performance.now() - startedWall)
  cpu.push((used.user + used.system) / 1000)
}

describe(`mount and unmount ${COUNT.toLocaleString('en')} components`, () => {
  const tm = createToolmark()

  // Sanity: the tool rows really register, and really go away.
  const check = createRoot(document.createElement('div'))
  flushSync(() =>
    check.render(
      <ToolProvider toolmark={tm}>
        <Rows Row={ToolRow} />
      </ToolProvider>,
    ),
  )
  if (tm.manifest().tools.length !== COUNT) throw new Error('the tool rows did not register')
  flushSync(() => check.unmount())
  if (tm.manifest().tools.length !== 0) throw new Error('the tool rows did not unregister')

  // Each iteration times both kinds back to back, alternating which goes first, so load on
  // the machine and garbage collection weigh on both sides alike; the ratio compares medians.
  const withTool = () => timed(timings.withTool, timings.withToolWall, tm, ToolRow)
  const without = () => timed(timings.without, timings.withoutWall, tm, PlainRow)
  let round = 0
  bench(
    'with useTool vs without, interleaved',
    () => {
      if (round++ < WARMUP) {
        mountAndUnmount(tm, ToolRow)
        mountAndUnmount(tm, PlainRow)
      } else if (round % 2 === 0) {
        withTool()
        without()
      } else {
        without()
        withTool()
      }
    },
    { iterations: ROUNDS, warmupIterations: 0 },
  )
})

const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/** Mounts, then waits a macrotask for what the mount left (timed); the unmount is not timed. */
async function mountAndSettle(cpu: number[], tm: Toolmark, Row: typeof PlainRow) {
  const root = createRoot(document.createElement('div'))
  const started = process.cpuUsage()
  flushSync(() =>
    root.render(
      <ToolProvider toolmark={tm}>
        <Rows Row={Row} />
      </ToolProvider>,
    ),
  )
  await macrotask()
  const used = process.cpuUsage(started)
  cpu.push((used.user + used.system) / 1000)
  flushSync(() => root.unmount())
  await macrotask()
}

describe(`mount ${COUNT.toLocaleString('en')} components and settle`, () => {
  const tm = createToolmark()
  let round = 0
  bench(
    'with useTool vs without, interleaved',
    async () => {
      const first = round++ % 2 === 0
      if (round <= WARMUP) {
        await mountAndSettle([], tm, ToolRow)
        await mountAndSettle([], tm, PlainRow)
      } else if (first) {
        await mountAndSettle(settled.withTool, tm, ToolRow)
        await mountAndSettle(settled.without, tm, PlainRow)
      } else {
        await mountAndSettle(settled.without, tm, PlainRow)
        await mountAndSettle(settled.withTool, tm, ToolRow)
      }
    },
    { iterations: ROUNDS, warmupIterations: 0 },
  )
})

describe('re-renders of a sibling subtree while tools register and unregister', () => {
  const tm = createToolmark()
  let show: (value: boolean) => void = () => {}

  function Reader() {
    useToolmark()
    const { items } = useConfirmations()
    const activity = useAgentActivity()
    return (
      <p>
        {items.length} pending, {activity.length} calls
      </p>
    )
  }

  function Toggle() {
    const [visible, setVisible] = useState(false)
    show = setVisible
    return visible ? <Rows Row={ToolRow} /> : null
  }

  const root: Root = createRoot(document.createElement('div'))
  let counting = false
  flushSync(() =>
    root.render(
      <ToolProvider toolmark={tm}>
        <Profiler
          id="sibling"
          onRender={() => {
            if (counting) sibling.renders++
          }}
        >
          <Reader />
        </Profiler>
        <Toggle />
      </ToolProvider>,
    ),
  )
  // The first mount is not caused by registration; count from here on.
  counting = true

  bench(
    'register and unregister 1,000 tools beside the sibling',
    async () => {
      flushSync(() => show(true))
      // Lets the registry's coalesced revision notification go out.
      await Promise.resolve()
      flushSync(() => show(false))
      await Promise.resolve()
      sibling.cycles++
    },
    { iterations: 10, warmupIterations: 1 },
  )
})

afterAll(() => {
  const ratio = (a: number[], b: number[]) => (median(a) / median(b)).toFixed(2)
  const ms = (values: number[]) => `${median(values).toFixed(1)} ms`
  console.log(
    [
      `registration (React ${process.env.NODE_ENV === 'production' ? 'production' : 'development'} build): mount + unmount of ${COUNT} components, median of ${timings.withTool.length} interleaved rounds`,
      `  CPU time   with useTool ${ms(timings.withTool)}, without ${ms(timings.without)}: ratio ${ratio(timings.withTool, timings.without)}x (target <= 1.3x)`,
      `  wall time  with useTool ${ms(timings.withToolWall)}, without ${ms(timings.withoutWall)}: ratio ${ratio(timings.withToolWall, timings.withoutWall)}x`,
      `mount + settle of ${COUNT} components, median of ${settled.withTool.length} interleaved rounds`,
      `  CPU time   with useTool ${ms(settled.withTool)}, without ${ms(settled.without)}: ratio ${ratio(settled.withTool, settled.without)}x`,
      `re-renders of the sibling subtree over ${sibling.cycles} register/unregister cycles of ${COUNT} tools: ${sibling.renders} (target 0)`,
    ].join('\n'),
  )
  if (sibling.renders !== 0) throw new Error(`the sibling re-rendered ${sibling.renders} times`)
})
