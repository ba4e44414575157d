/**
 * Filling a 200-field react-hook-form form, measured in jsdom and in real Chromium.
 *
 * 1. `ticket.fill` with 200 values through `tm.call` (validation, diff, undo entry, redaction)
 *    against a loop of `form.setValue` over the same 200 values on an identical form, interleaved
 *    in one run. Both write with `{ shouldDirty: true }` (what a fill does, so the app's "unsaved"
 *    state shows agent writes); a plain `setValue(name, value)` loop is timed too, for reference.
 *    Target: the fill takes at most 2× the `setValue` loop.
 * 2. Commits of the form component caused by each fill (it reads `formState.isDirty`, as an
 *    "unsaved changes" badge would). Target: at most 1 per fill.
 *
 * Run (both environments, one after the other):
 *   npx vitest run --config bench/fill.config.ts
 * Not part of `npm test`. Ratios come from one interleaved run per environment; the machine's
 * load moves the medians, so the fastest round is printed too.
 */
import { Profiler } from 'react'
import { createRoot } from 'react-dom/client'
import { flushSync } from 'react-dom'
import { afterAll, describe, it } from 'vitest'
import { useForm, type UseFormReturn } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { createToolmark } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import { ToolProvider } from '@toolmark/react'
import { useFormTool } from '@toolmark/react/rhf'

const FIELDS = 200
const WARMUP = 15
const ROUNDS = 80
const names = Array.from({ length: FIELDS }, (_, i) => `field${i}`)
const schema = z.object(Object.fromEntries(names.map((name) => [name, z.string().max(40)])))
type Values = Record<string, string>
const defaults: Values = Object.fromEntries(names.map((name) => [name, '']))

const forms: { withTool?: UseFormReturn<Values>; plain?: UseFormReturn<Values> } = {}

function Fields({ form, label }: { form: UseFormReturn<Values>; label: string }) {
  return (
    <form aria-label={label}>
      {names.map((name) => (
        <label key={name}>
          {name} <input {...form.register(name)} />
        </label>
      ))}
      <output>{form.formState.isDirty ? 'unsaved changes' : 'saved'}</output>
    </form>
  )
}

function FormWithTool() {
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: defaults })
  forms.withTool = form
  useFormTool(form, {
    name: 'ticket',
    description: 'A form of 200 fields.',
    schema,
    onSubmit: () => null,
  })
  return <Fields form={form} label="with useFormTool" />
}

function PlainForm() {
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: defaults })
  forms.plain = form
  return <Fields form={form} label="plain" />
}

const timings = { fill: [] as number[], setValue: [] as number[], plainSetValue: [] as number[] }
const commits = { perFill: [] as number[], counting: false, current: 0 }

const environment = () =>
  /jsdom/.test(navigator.userAgent)
    ? `jsdom ${/jsdom\/([\d.]+)/.exec(navigator.userAgent)?.[1] ?? ''}`.trim()
    : `Chromium ${/Chrome\/([\d.]+)/.exec(navigator.userAgent)?.[1] ?? ''}`.trim()

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}

/** Lets React commit whatever the writes scheduled. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

let round = 0
const valuesFor = (n: number): Values =>
  Object.fromEntries(names.map((name, i) => [name, `value ${n}-${i}`]))

async function timeFill(tm: Toolmark, values: Values) {
  commits.current = 0
  commits.counting = true
  const started = performance.now()
  const result = await tm.call('ticket.fill', { values }, { caller: 'inapp' })
  timings.fill.push(performance.now() - started)
  if (result.status !== 'ok' || (result.data as { changes: unknown[] }).changes.length !== FIELDS) {
    throw new Error(`the fill did not write ${FIELDS} fields: ${JSON.stringify(result)}`)
  }
  await settle()
  commits.counting = false
  commits.perFill.push(commits.current)
}

async function timeSetValue(values: Values, into: number[], options?: { shouldDirty: boolean }) {
  const form = forms.plain!
  const started = performance.now()
  for (const name of names) form.setValue(name, values[name], options)
  into.push(performance.now() - started)
  await settle()
}

describe(`fill ${FIELDS} fields of one react-hook-form form`, () => {
  const tm = createToolmark()
  const root = createRoot(document.body.appendChild(document.createElement('div')))
  flushSync(() =>
    root.render(
      <ToolProvider toolmark={tm}>
        <Profiler
          id="form"
          onRender={() => {
            if (commits.counting) commits.current++
          }}
        >
          <FormWithTool />
        </Profiler>
        <PlainForm />
      </ToolProvider>,
    ),
  )

  it('ticket.fill vs a setValue loop, interleaved', async () => {
    for (let n = 0; n < WARMUP + ROUNDS; n++) {
      // Timings start after the warm-up; commits are counted for every fill, the first included.
      if (n === WARMUP) for (const list of Object.values(timings)) list.length = 0
      const values = valuesFor(round)
      // Alternate which side goes first, so load and garbage collection weigh on both alike.
      if (round++ % 2 === 0) {
        await timeFill(tm, values)
        await timeSetValue(values, timings.setValue, { shouldDirty: true })
        await timeSetValue(valuesFor(-round), timings.plainSetValue)
      } else {
        await timeSetValue(values, timings.setValue, { shouldDirty: true })
        await timeSetValue(valuesFor(-round), timings.plainSetValue)
        await timeFill(tm, values)
      }
      const input = document.querySelector<HTMLInputElement>(
        'form[aria-label="with useFormTool"] input',
      )
      if (input?.value !== values.field0) throw new Error('the fill did not reach the inputs')
    }
  })
})

afterAll(() => {
  const fastest = (values: number[]) => Math.min(...values)
  const line = (label: string, values: number[], against?: number[]) => {
    const ratio = against
      ? `   ratio ${(median(values) / median(against)).toFixed(2)}x median, ${(fastest(values) / fastest(against)).toFixed(2)}x fastest`
      : ''
    return `  ${label.padEnd(30)} median ${median(values).toFixed(2)} ms, fastest ${fastest(values).toFixed(2)} ms${ratio}`
  }
  // The first measured fill may flip `isDirty` (one commit); later ones change nothing React shows.
  const maxCommits = Math.max(...commits.perFill)
  const meanCommits = commits.perFill.reduce((a, b) => a + b, 0) / commits.perFill.length
  console.log(
    [
      `fill in ${environment()}: ${FIELDS} fields, ${timings.fill.length} interleaved rounds after ${WARMUP} warm-up rounds`,
      line('setValue loop, shouldDirty', timings.setValue),
      line('setValue loop, no options', timings.plainSetValue),
      line('ticket.fill via tm.call', timings.fill, timings.setValue),
      `  (target: ticket.fill <= 2x the shouldDirty setValue loop)`,
      `  commits of the form component per fill, over all ${commits.perFill.length} fills: max ${maxCommits}, mean ${meanCommits.toFixed(2)} (target <= 1)`,
    ].join('\n'),
  )
  if (maxCommits > 1) throw new Error(`a fill caused ${maxCommits} commits of the form`)
})
