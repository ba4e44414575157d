/**
 * The WebMCP export at scale, measured in jsdom (on `@mcp-b/webmcp-polyfill`) and in real
 * Chromium (native WebMCP), in interleaved rounds of one run:
 *
 * 1. The floor: 1,000 tools registered directly with `document.modelContext.registerTool`, each
 *    with a JSON Schema computed beforehand and its own AbortController, then unregistered by
 *    aborting them.
 * 2. `tm.use(webmcp())` serving a registry of the same 1,000 tools (on a fresh revision, so its
 *    manifest is rebuilt; JSON Schemas are cached per schema object), then its teardown.
 *    Target: at most 1.5× the floor.
 *    For reference, untargeted: a fresh registry, its 1,000 registrations and `webmcp()` together
 *    (what a page that mounts its tools and the export at once pays).
 * 3. With `webmcp()` serving the 1,000 tools, one tool registered and then disposed: from
 *    `tm.register` (or `dispose`) until the revision has reached the model context.
 *    Target: at most 5 % of the full sync of (2).
 *
 * Each time runs until every `registerTool` (or abort) the step needs has returned: both hosts
 * update their tool list synchronously there (their promise only reports back). After each step,
 * untimed, `getTools()` must list exactly the registry, or the run fails.
 *
 * The same mount is also timed against a host whose `registerTool` does nothing, which leaves
 * only the JavaScript each side runs around the host (native `registerTool` costs vary with the
 * browser's own state far more than anything on the page side).
 *
 * Run (both environments, one after the other):
 *   npx vitest run --config bench/webmcp.config.ts
 * Not part of `npm test`.
 */
import { afterAll, describe, it } from 'vitest'
import { z } from 'zod'
import { initializeWebMCPPolyfill } from '@mcp-b/webmcp-polyfill'
import { createToolmark, ok } from '@toolmark/core'
import { webmcp, type WebMCPModelContext, type WebMCPTool } from '@toolmark/core/webmcp'

const TOOLS = 1000
const WARMUP = 5
const ROUNDS = 60

interface Host extends WebMCPModelContext {
  getTools(): Promise<{ name: string }[]>
}

const doc = document as unknown as { modelContext?: Host }
if (!doc.modelContext) initializeWebMCPPolyfill()
const host = doc.modelContext!
const native = Function.prototype.toString.call(host.registerTool).includes('[native code]')

const environment = () =>
  /jsdom/.test(navigator.userAgent)
    ? `jsdom ${/jsdom\/([\d.]+)/.exec(navigator.userAgent)?.[1] ?? ''}`.trim()
    : `Chromium ${/Chrome\/([\d.]+)/.exec(navigator.userAgent)?.[1] ?? ''}`.trim()

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}

/** Lets the host's own deferred work (change events, promises) finish between steps. */
const settle = async () => {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 2))
}

// The same 1,000 tools on both sides: one zod input shared by all, as components declaring the
// same kind of tool do; every third one read-only.
const input = z.object({
  id: z.string().describe('The ticket id'),
  note: z.string().optional(),
  priority: z.enum(['low', 'normal', 'high']).optional(),
})
const tools = Array.from({ length: TOOLS }, (_, i) => ({
  name: `tickets.t${i}`,
  description: `Tool number ${i}: acts on one ticket.`,
  readOnly: i % 3 === 0,
}))
const expected = tools.map((tool) => tool.name).sort()

async function expectHostHolds(names: string[], step: string) {
  const listed = (await host.getTools()).map((tool) => tool.name).sort()
  if (listed.length !== names.length || listed.some((name, i) => name !== names[i])) {
    throw new Error(
      `after ${step} the model context holds ${listed.length} tools, expected ${names.length}`,
    )
  }
}

// --- the floor ---------------------------------------------------------------------------------

const precomputed = input['~standard'].jsonSchema.input({ target: 'draft-2020-12' })
const answer = (data: unknown) => {
  const text = JSON.stringify({ status: 'ok', data })
  return { content: [{ type: 'text' as const, text }], structuredContent: JSON.parse(text) }
}

function floorMount(context: WebMCPModelContext = host): AbortController[] {
  const controllers: AbortController[] = new Array(TOOLS)
  for (let i = 0; i < TOOLS; i++) {
    const tool = tools[i]
    const controller = new AbortController()
    controllers[i] = controller
    const dictionary = {
      name: tool.name,
      description: tool.description,
      inputSchema: precomputed,
      annotations: {
        readOnlyHint: tool.readOnly,
        untrustedContentHint: false,
        consequentialHint: false,
      },
      execute: async (args: unknown) => ({ ...answer(args), isError: false }),
    } as unknown as WebMCPTool
    const pending = context.registerTool(dictionary, { signal: controller.signal })
    // An app must catch too: a registration aborted before it settles rejects.
    ;(pending as Promise<unknown>).catch(() => {})
  }
  return controllers
}

function floorUnmount(controllers: AbortController[]) {
  for (const controller of controllers) controller.abort()
}

// --- webmcp() ----------------------------------------------------------------------------------

const tm = createToolmark({ dev: false })
for (const tool of tools) {
  tm.register({
    name: tool.name,
    description: tool.description,
    input,
    hints: tool.readOnly ? { readOnly: true } : {},
    run: (args) => ok(args),
  })
}
tm.manifest({ caller: 'webmcp', detail: 'full' })

/** Starts a new revision (untimed), so the next sync rebuilds the manifest list. */
async function newRevision() {
  tm.register({ name: 'bump', description: 'Starts a revision.', run: () => ok(null) }).dispose()
  await settle()
}

/** Resolves once the next revision reached every subscriber (webmcp's subscribed first). */
function revisionDone(): Promise<void> {
  return new Promise((resolve) => {
    const off = tm.subscribe(() => {
      off()
      resolve()
    })
  })
}

const timings = {
  floorMount: [] as number[],
  floorUnmount: [] as number[],
  mount: [] as number[],
  unmount: [] as number[],
  add: [] as number[],
  remove: [] as number[],
  fresh: [] as number[],
  nullFloor: [] as number[],
  nullMount: [] as number[],
}

/** A host that takes every tool and does nothing with it. */
const nullHost: WebMCPModelContext = { registerTool: () => Promise.resolve() }

async function timeNullHost(round: number) {
  await newRevision()
  const webmcpSide = () => {
    const started = performance.now()
    const stop = tm.use(webmcp({ modelContext: nullHost }))
    timings.nullMount.push(performance.now() - started)
    stop()
  }
  const floorSide = () => {
    const started = performance.now()
    floorMount(nullHost)
    timings.nullFloor.push(performance.now() - started)
  }
  if (round % 2 === 0) {
    floorSide()
    await settle()
    webmcpSide()
  } else {
    webmcpSide()
    await settle()
    floorSide()
  }
  await settle()
}

/** A new registry, its 1,000 tools and `webmcp()`, all timed together. */
async function timeFreshRegistry() {
  const started = performance.now()
  const fresh = createToolmark({ dev: false })
  for (const tool of tools) {
    fresh.register({
      name: tool.name,
      description: tool.description,
      input,
      hints: tool.readOnly ? { readOnly: true } : {},
      run: (args) => ok(args),
    })
  }
  const stop = fresh.use(webmcp({ modelContext: host }))
  timings.fresh.push(performance.now() - started)
  await settle()
  await expectHostHolds(expected, 'a fresh registry was served')
  stop()
  await settle()
}

async function timeFloor() {
  let started = performance.now()
  const controllers = floorMount()
  timings.floorMount.push(performance.now() - started)
  await settle()
  await expectHostHolds(expected, 'the floor registered its tools')
  started = performance.now()
  floorUnmount(controllers)
  timings.floorUnmount.push(performance.now() - started)
  await settle()
  await expectHostHolds([], 'the floor unregistered its tools')
}

async function timeWebMCP(round: number) {
  await newRevision()
  let started = performance.now()
  const stop = tm.use(webmcp({ modelContext: host }))
  timings.mount.push(performance.now() - started)
  await settle()
  await expectHostHolds(expected, 'webmcp() synced')

  // One tool among 1,000 comes and goes.
  const extra = `tickets.extra${round}`
  let done = revisionDone()
  started = performance.now()
  const handle = tm.register({
    name: extra,
    description: 'One more tool.',
    input,
    run: (args) => ok(args),
  })
  await done
  timings.add.push(performance.now() - started)
  await settle()
  await expectHostHolds([...expected, extra].sort(), 'one tool was added')

  done = revisionDone()
  started = performance.now()
  handle.dispose()
  await done
  timings.remove.push(performance.now() - started)
  await settle()
  await expectHostHolds(expected, 'one tool was removed')

  started = performance.now()
  stop()
  timings.unmount.push(performance.now() - started)
  await settle()
  await expectHostHolds([], 'webmcp() was disposed')
}

describe(`WebMCP export of ${TOOLS} tools`, () => {
  it('webmcp() vs registering directly on modelContext, interleaved', async () => {
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      if (round === WARMUP) for (const list of Object.values(timings)) list.length = 0
      // Alternate which side goes first, so load and garbage collection weigh on both alike.
      if (round % 2 === 0) {
        await timeFloor()
        await timeWebMCP(round)
      } else {
        await timeWebMCP(round)
        await timeFloor()
      }
      await timeFreshRegistry()
      await timeNullHost(round)
    }
  })
})

afterAll(() => {
  const ms = (value: number) => `${value.toFixed(2).padStart(7)} ms`
  const fastest = (values: number[]) => Math.min(...values)
  const m = Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, median(v)])) as Record<
    keyof typeof timings,
    number
  >
  const f = Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, fastest(v)])) as Record<
    keyof typeof timings,
    number
  >
  const x = (a: number, b: number) => `${(a / b).toFixed(2)}×`
  const pct = (value: number) => `${((value / m.mount) * 100).toFixed(1)} % of a full sync`
  console.log(
    [
      `webmcp in ${environment()} on ${native ? 'native WebMCP' : '@mcp-b/webmcp-polyfill'}: ${TOOLS} tools sharing one zod input, ${timings.mount.length} interleaved rounds after ${WARMUP} warm-up rounds (median, fastest)`,
      `  floor: registerTool × ${TOOLS}, schema precomputed   mount ${ms(m.floorMount)}, ${ms(f.floorMount)}   unmount ${ms(m.floorUnmount)}, ${ms(f.floorUnmount)}`,
      `  tm.use(webmcp()), fresh revision           mount ${ms(m.mount)}, ${ms(f.mount)}   unmount ${ms(m.unmount)}, ${ms(f.unmount)}`,
      `  ratio webmcp() / floor, mount + unmount    ${x(m.mount + m.unmount, m.floorMount + m.floorUnmount)} median, ${x(f.mount + f.unmount, f.floorMount + f.floorUnmount)} fastest   (mount alone ${x(m.mount, m.floorMount)}, ${x(f.mount, f.floorMount)}; unmount ${x(m.unmount, m.floorUnmount)}, ${x(f.unmount, f.floorUnmount)})   (target ≤ 1.5×)`,
      `  fresh registry + 1,000 registrations + webmcp()   ${ms(m.fresh)}, ${ms(f.fresh)}   (${x(m.fresh, m.floorMount)}, ${x(f.fresh, f.floorMount)} the floor's mount; for reference)`,
      `  JS alone (a registerTool that does nothing)  floor ${ms(m.nullFloor)}   webmcp() ${ms(m.nullMount)}   (${x(m.nullMount, m.nullFloor)} median)`,
      `  one tool added among ${TOOLS}                ${ms(m.add)}   ${pct(m.add)}   (target ≤ 5 %)`,
      `  one tool removed among ${TOOLS}              ${ms(m.remove)}   ${pct(m.remove)}   (target ≤ 5 %)`,
    ].join('\n'),
  )
})
