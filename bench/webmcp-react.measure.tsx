/**
 * React components that each serve one tool to browser agents, against MCP-B's own hook.
 * Measured in jsdom and in real Chromium, both on `@mcp-b/webmcp-polyfill` (the same host for
 * every contender), in interleaved rounds of one run:
 *
 * - plain: 1,000 components without tools (the baseline);
 * - Toolmark: the same 1,000 components each calling `useTool`, and one `useWebMCP()` serving
 *   the registry on `document.modelContext`;
 * - MCP-B: the same 1,000 components each calling `useWebMCP` from `@mcp-b/react-webmcp`.
 *
 * Each side is mounted (`flushSync`, which also runs the effects), settled (a few microtask
 * turns, the same for every side: Toolmark hands a revision to its subscribers in a microtask),
 * then unmounted and settled again. Untimed after each step, `getTools()` must list exactly the
 * 1,000 tools (or none), or the run fails. Every tool shares one zod input.
 * Ratios: (mount + unmount) of a contender over (mount + unmount) of the plain components,
 * medians of the rounds. React runs its production build when NODE_ENV=production.
 *
 * Run (not part of `npm test`):
 *   NODE_ENV=production npx vitest run --config bench/webmcp.config.ts --project 'webmcp-react-*'
 */
import { useState, type ComponentType, type ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import { flushSync } from 'react-dom'
import { afterAll, describe, it } from 'vitest'
import { z } from 'zod'
import { initializeWebMCPPolyfill } from '@mcp-b/webmcp-polyfill'
import { useWebMCP as useMcpbWebMCP } from '@mcp-b/react-webmcp'
import { createToolmark, ok, type Toolmark } from '@toolmark/core'
import { ToolProvider, useTool, useWebMCP } from '@toolmark/react'

const COUNT = 1000
const WARMUP = 5
const ROUNDS = 40

interface Host {
  registerTool: unknown
  getTools(): Promise<{ name: string }[]>
}

const doc = document as unknown as { modelContext?: Host }
if (!doc.modelContext) initializeWebMCPPolyfill()
const host = doc.modelContext!
const onPolyfill = !Function.prototype.toString.call(host.registerTool).includes('[native code]')

const environment = () =>
  /jsdom/.test(navigator.userAgent)
    ? `jsdom ${/jsdom\/([\d.]+)/.exec(navigator.userAgent)?.[1] ?? ''}`.trim()
    : `Chromium ${/Chrome\/([\d.]+)/.exec(navigator.userAgent)?.[1] ?? ''}`.trim()

// React's development build keeps a `_store` on every element; the production build has none.
const reactBuild = () => ('_store' in <i /> ? 'development' : 'production')

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}

const input = z.object({
  id: z.string().describe('The ticket id'),
  note: z.string().optional(),
})

function PlainRow({ index }: { index: number }) {
  const [value, setValue] = useState(index)
  return (
    <li>
      row {index}: <button onClick={() => setValue(value + 1)}>{value}</button>
    </li>
  )
}

function ToolmarkRow({ index }: { index: number }) {
  const [value, setValue] = useState(index)
  useTool({
    name: `row_${index}`,
    description: 'Notes something on this row.',
    input,
    run: (args) => {
      setValue((v) => v + 1)
      return ok(args)
    },
  })
  return (
    <li>
      row {index}: <button onClick={() => setValue(value + 1)}>{value}</button>
    </li>
  )
}

function McpbRow({ index }: { index: number }) {
  const [value, setValue] = useState(index)
  useMcpbWebMCP({
    name: `row_${index}`,
    description: 'Notes something on this row.',
    inputSchema: input,
    execute: async (args) => {
      setValue((v) => v + 1)
      return args
    },
  })
  return (
    <li>
      row {index}: <button onClick={() => setValue(value + 1)}>{value}</button>
    </li>
  )
}

function Rows({ Row }: { Row: ComponentType<{ index: number }> }) {
  const rows: ReactNode[] = []
  for (let i = 0; i < COUNT; i++) rows.push(<Row key={i} index={i} />)
  return <ul>{rows}</ul>
}

function ServeWebMCP() {
  useWebMCP()
  return null
}

const microtasks = async () => {
  for (let i = 0; i < 4; i++) await Promise.resolve()
}

/** Lets the host's deferred work (change events, promises) finish between steps, untimed. */
const settleHost = async () => {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 2))
}

const names = Array.from({ length: COUNT }, (_, i) => `row_${i}`).sort()

async function expectHostHolds(expected: string[], step: string) {
  const listed = (await host.getTools()).map((tool) => tool.name).sort()
  if (listed.length !== expected.length || listed.some((name, i) => name !== expected[i])) {
    throw new Error(`after ${step} the model context holds ${listed.length} tools`)
  }
}

type Side = 'plain' | 'toolmark' | 'mcpb'
const timings: Record<Side, { mount: number[]; unmount: number[] }> = {
  plain: { mount: [], unmount: [] },
  toolmark: { mount: [], unmount: [] },
  mcpb: { mount: [], unmount: [] },
}

function tree(side: Side, tm: Toolmark): ReactNode {
  if (side === 'plain') return <Rows Row={PlainRow} />
  if (side === 'mcpb') return <Rows Row={McpbRow} />
  return (
    <ToolProvider toolmark={tm}>
      <ServeWebMCP />
      <Rows Row={ToolmarkRow} />
    </ToolProvider>
  )
}

async function timeSide(side: Side) {
  const tm = createToolmark({ dev: false })
  const container = document.createElement('div')
  const root = createRoot(container)
  const element = tree(side, tm)
  let started = performance.now()
  flushSync(() => root.render(element))
  await microtasks()
  timings[side].mount.push(performance.now() - started)
  await settleHost()
  await expectHostHolds(side === 'plain' ? [] : names, `${side} mounted`)

  started = performance.now()
  flushSync(() => root.unmount())
  await microtasks()
  timings[side].unmount.push(performance.now() - started)
  await settleHost()
  await expectHostHolds([], `${side} unmounted`)
}

const ORDERS: Side[][] = [
  ['plain', 'toolmark', 'mcpb'],
  ['toolmark', 'mcpb', 'plain'],
  ['mcpb', 'plain', 'toolmark'],
]

describe(`${COUNT} components, each serving one tool over WebMCP`, () => {
  it('useTool + useWebMCP() vs MCP-B useWebMCP vs plain components, interleaved', async () => {
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      if (round === WARMUP) {
        for (const side of Object.values(timings)) {
          side.mount.length = 0
          side.unmount.length = 0
        }
      }
      // Rotate who goes first, so load and garbage collection weigh on every side alike.
      for (const side of ORDERS[round % ORDERS.length]) await timeSide(side)
    }
  })
})

afterAll(() => {
  const total = (side: Side) => median(timings[side].mount) + median(timings[side].unmount)
  const ms = (value: number) => `${value.toFixed(2).padStart(7)} ms`
  const row = (label: string, side: Side) =>
    `  ${label.padEnd(34)} mount ${ms(median(timings[side].mount))}   unmount ${ms(median(timings[side].unmount))}   ${(total(side) / total('plain')).toFixed(2)}× plain`
  console.log(
    [
      `webmcp-react in ${environment()}, React ${reactBuild()} build, on ${onPolyfill ? '@mcp-b/webmcp-polyfill' : 'native WebMCP'}: ${COUNT} components, ${timings.plain.mount.length} interleaved rounds after ${WARMUP} warm-up rounds (medians)`,
      row('plain components', 'plain'),
      row('useTool + useWebMCP() (Toolmark)', 'toolmark'),
      row('useWebMCP (@mcp-b/react-webmcp)', 'mcpb'),
    ].join('\n'),
  )
})
