import { isThenable } from '../base/guards'
import {
  toolDescription,
  type CallSeam,
  type RunInfo,
  type RunOutcome,
  type RunWrapper,
} from '../call/runWrappers'
import type {
  CallEvent,
  ConfirmEvent,
  ErrorEvent,
  ProgressEvent,
  ResultEvent,
  ToolResult,
} from '../types'
import type {
  OtelAttributes,
  OtelContext,
  OtelContextApi,
  OtelSpan,
  OtelSpanContext,
  OtelTraceApi,
  OtelTracer,
} from './otelTypes'
import {
  INTERNAL,
  endToolSpan,
  outcomeOf,
  payload,
  thrownType,
  toolAttributes,
  toolSpanName,
  type Outcome,
} from './toolSpans'

/** A tool span that is still open: a call's, or the run of a deferred call a person approved. */
interface OpenSpan {
  readonly span: OtelSpan
  /** The tool as telemetry names it (`UNKNOWN_TOOL` for a name no tool had at the call). */
  readonly tool?: string
  /** The context with this span active, when the app gave its context API. */
  readonly context: OtelContext | undefined
  /** What the call threw, as its last `error` event said. */
  thrown?: string
}

/** A call span that is still open. */
interface OpenCall extends OpenSpan {
  /** The inline confirmation the call waits on, until its end is known. */
  confirming?: string
  /** The result, when it came before the confirmation's end (inline confirmations do). */
  held?: { event: ResultEvent; at: number; timer: ReturnType<typeof setTimeout> }
}

/** The span of a deferred confirmation, from the request to the person's answer. */
interface Decision {
  readonly span: OtelSpan
  readonly callId: string
  readonly confirmId: string
  /** The span of the call that asked, for the approved run's link. */
  readonly asking: OtelSpanContext | undefined
  readonly context: OtelContext | undefined
}

/** What a `CallTracer` is given. */
export interface CallTracerOptions {
  readonly tracer: OtelTracer
  /** The app's context and trace APIs, when both are given. */
  readonly api: { readonly context: OtelContextApi; readonly trace: OtelTraceApi } | undefined
  /** Where a recorded payload is cut; `undefined`: payloads are not recorded. */
  readonly maxLength: number | undefined
  /** The registry's seam, for tools' descriptions. */
  readonly seam: CallSeam | undefined
  /** Emits an `error` event on the registry. */
  readonly report: (event: ErrorEvent) => void
  /** What telemetry names a called tool (`toolNames`): made-up names are one value. */
  readonly toolName: (tool: string) => string
  /**
   * Measures each tool span that ends with a result: its tool, its duration in seconds and its
   * `error.type`. Default: nothing is measured.
   */
  readonly measure?: ToolMeasure
}

/** Measures one ended tool span (`gen_ai.execute_tool.duration`). */
export type ToolMeasure = (tool: string, seconds: number, errorType: string | undefined) => void

/**
 * The one owner of one registry's open spans: each call's, each deferred confirmation's and each
 * approved run's. The registry's events move them; `wrapRun` runs a tool inside its span.
 */
export class CallTracer {
  readonly #tracer: OtelTracer
  readonly #api: CallTracerOptions['api']
  readonly #maxLength: number | undefined
  readonly #seam: CallSeam | undefined
  readonly #report: (event: ErrorEvent) => void
  readonly #toolName: (tool: string) => string
  readonly #measure: ToolMeasure | undefined
  readonly #open = new Map<string, OpenCall>()
  /** Spans of deferred confirmations, by confirmation id. */
  readonly #deciding = new Map<string, Decision>()
  /** Spans of approved deferred runs, by call id. */
  readonly #runs = new Map<string, OpenSpan>()

  constructor(options: CallTracerOptions) {
    this.#tracer = options.tracer
    this.#api = options.api
    this.#maxLength = options.maxLength
    this.#seam = options.seam
    this.#report = options.report
    this.#toolName = options.toolName
    this.#measure = options.measure
  }

  /** What the call threw, while its span is open: for its measurements. */
  thrownBy(callId: string): string | undefined {
    return this.#open.get(callId)?.thrown
  }

  /** The tool of a result as its call's span named it, for its measurements: the two agree. */
  toolOf(event: ResultEvent): string {
    return this.#open.get(event.callId)?.tool ?? this.#toolName(event.tool)
  }

  call(event: CallEvent): void {
    const tool = this.#toolName(event.tool)
    const attributes = this.#attributes(event.callId, tool, event.caller)
    if (this.#maxLength !== undefined) {
      // Under Toolmark's name and the conventions' opt-in one: the same redacted text.
      const input = payload(event.input, this.#maxLength)
      attributes['toolmark.input'] = input
      attributes['gen_ai.tool.call.arguments'] = input
    }
    // Under the caller's context: an agent's own span (an MCP request's, a chat turn's).
    const parent = this.#api?.context.active()
    const span = this.#tracer.startSpan(toolSpanName(tool), { kind: INTERNAL, attributes }, parent)
    this.#open.set(event.callId, { span, tool, context: this.#within(parent, span) })
  }

  result(event: ResultEvent): void {
    const at = Date.now()
    const state = this.#open.get(event.callId)
    if (!state) {
      // A call begun before this was attached: its span is drawn from its duration.
      const tool = this.#toolName(event.tool)
      const span = this.#tracer.startSpan(toolSpanName(tool), {
        kind: INTERNAL,
        startTime: at - event.durationMs,
        attributes: this.#attributes(event.callId, tool, event.caller),
      })
      this.#finish({ span, tool, context: undefined }, event, at)
      return
    }
    if (state.confirming !== undefined) {
      // An inline confirmation announces its end just after the call's result: wait for it,
      // so the span says how the person's decision ended. A macrotask at most; a span whose
      // confirmation never said (the registry was torn down) ends without an outcome.
      const timer = setTimeout(() => {
        if (this.#open.get(event.callId) !== state) return
        this.#open.delete(event.callId)
        this.#finish(state, event, at)
      }, 0)
      state.held = { event, at, timer }
      return
    }
    this.#open.delete(event.callId)
    this.#finish(state, event, at)
  }

  error(event: ErrorEvent): void {
    // A consumer's own trouble (this one's context API) says nothing of how the run went.
    if (typeof event.callId !== 'string' || event.code === 'consumer_threw') return
    const state = this.#open.get(event.callId) ?? this.#runs.get(event.callId)
    if (state) state.thrown = thrownType(event)
  }

  confirm({ status, entry, result }: ConfirmEvent): void {
    const state = this.#open.get(entry.callId)
    const target = state ?? this.#runs.get(entry.callId)
    if (status === 'pending') {
      target?.span.addEvent('toolmark.confirmation.requested', {
        'toolmark.confirm_id': entry.id,
        'toolmark.confirmation.mode': entry.mode,
      })
      if (entry.mode !== 'inline') this.#decide(entry, state)
      else if (state) state.confirming = entry.id
      return
    }
    const outcome = outcomeOf(status, result)
    const decision = this.#deciding.get(entry.id)
    if (decision) {
      this.#deciding.delete(entry.id)
      decision.span.setAttribute('toolmark.confirmation', outcome)
      if (result) decision.span.setAttribute('toolmark.status', result.status)
      decision.span.end()
      return
    }
    if (state && state.confirming === entry.id) {
      state.confirming = undefined
      if (state.held) {
        clearTimeout(state.held.timer)
        this.#open.delete(entry.callId)
        this.#finish(state, state.held.event, state.held.at, outcome)
        return
      }
    }
    target?.span.addEvent(`toolmark.confirmation.${outcome}`)
  }

  progress(event: ProgressEvent): void {
    const attributes: OtelAttributes = { 'toolmark.progress.done': event.done }
    if (event.total !== undefined) attributes['toolmark.progress.total'] = event.total
    const state = this.#open.get(event.callId) ?? this.#runs.get(event.callId)
    state?.span.addEvent('toolmark.progress', attributes)
  }

  /**
   * Runs a tool inside its span: the call's, or a new one for an approved deferred run. The run
   * happens once, whatever the app's context API does: one that throws is reported and the run
   * goes on outside the span.
   */
  readonly wrapRun: RunWrapper = (run, execute) => {
    let ran = false
    let out: RunOutcome | undefined
    const once = (): RunOutcome => {
      if (!ran) {
        ran = true
        out = execute()
      }
      return out!
    }
    try {
      this.#wrap(run, once)
    } catch (cause) {
      // The run's own throw is the pipeline's to handle.
      if (ran && out === undefined) throw cause
      this.#report({
        code: 'consumer_threw',
        message: `[toolmark] otel() could not run "${run.tool}" inside its span: its context API threw. The run went on outside it.`,
        tool: run.tool,
        callId: run.callId,
        cause,
      })
    }
    return once()
  }

  #wrap(run: RunInfo, execute: () => RunOutcome): void {
    const state = this.#open.get(run.callId)
    if (state) {
      this.#inContext(state.context, execute)
      return
    }
    const decision = run.caller === 'human' ? this.#decisionOf(run.callId) : undefined
    if (decision) this.#approvedRun(decision, run.tool, execute)
    else execute()
  }

  /** Ends whatever is still open, as `detached`. */
  detach(): void {
    for (const state of this.#open.values()) {
      if (state.held) {
        clearTimeout(state.held.timer)
        this.#finish(state, state.held.event, state.held.at)
        continue
      }
      state.span.setAttribute('toolmark.status', 'detached')
      state.span.end()
    }
    this.#open.clear()
    for (const state of this.#runs.values()) {
      state.span.setAttribute('toolmark.status', 'detached')
      state.span.end()
    }
    this.#runs.clear()
    for (const { span } of this.#deciding.values()) {
      span.setAttribute('toolmark.confirmation', 'detached')
      span.end()
    }
    this.#deciding.clear()
  }

  #attributes(callId: string, tool: string, caller: CallEvent['caller']): OtelAttributes {
    const seam = this.#seam
    return toolAttributes(callId, tool, caller, seam && toolDescription(seam, tool))
  }

  /** `span`'s context, under `parent`, when the app gave its context API. */
  #within(parent: OtelContext | undefined, span: OtelSpan): OtelContext | undefined {
    return this.#api && parent ? this.#api.trace.setSpan(parent, span) : undefined
  }

  #inContext(context: OtelContext | undefined, execute: () => RunOutcome): RunOutcome {
    return this.#api && context ? this.#api.context.with(context, execute) : execute()
  }

  #finish(state: OpenSpan, event: ResultEvent, endTime: number, outcome?: Outcome): void {
    const errorType = endToolSpan(state.span, {
      result: event.result,
      thrown: state.thrown,
      durationMs: event.durationMs,
      endTime,
      outcome,
      maxLength: this.#maxLength,
    })
    this.#measure?.(state.tool ?? this.#toolName(event.tool), event.durationMs / 1000, errorType)
  }

  /**
   * A deferred confirmation's span: under the asking call's span (the trace goes on while the
   * person decides), and linked to it.
   */
  #decide(entry: ConfirmEvent['entry'], asking: OpenCall | undefined): void {
    const parent = asking?.context ?? this.#api?.context.active()
    const span = this.#tracer.startSpan(
      `toolmark.confirmation ${entry.tool}`,
      {
        kind: INTERNAL,
        attributes: {
          'toolmark.tool': entry.tool,
          'toolmark.caller': entry.caller,
          'toolmark.call_id': entry.callId,
          'toolmark.confirm_id': entry.id,
        },
        links: asking ? [{ context: asking.span.spanContext() }] : [],
      },
      parent,
    )
    this.#deciding.set(entry.id, {
      span,
      callId: entry.callId,
      confirmId: entry.id,
      asking: asking?.span.spanContext(),
      context: this.#within(parent, span),
    })
  }

  #decisionOf(callId: string): Decision | undefined {
    for (const decision of this.#deciding.values()) if (decision.callId === callId) return decision
    return undefined
  }

  /**
   * The approved run of a deferred call: a span of its own under the decision's, linked to the
   * asking call's, ended by the run's result.
   */
  #approvedRun(decision: Decision, tool: string, execute: () => RunOutcome): void {
    const started = Date.now()
    const attributes = this.#attributes(decision.callId, tool, 'human')
    attributes['toolmark.confirm_id'] = decision.confirmId
    const links = decision.asking ? [{ context: decision.asking }] : []
    const span = this.#tracer.startSpan(
      toolSpanName(tool),
      { kind: INTERNAL, attributes, links },
      decision.context,
    )
    const state: OpenSpan = { span, tool, context: this.#within(decision.context, span) }
    this.#runs.set(decision.callId, state)
    const end = (result: ToolResult) => {
      if (this.#runs.get(decision.callId) !== state) return
      this.#runs.delete(decision.callId)
      const endTime = Date.now()
      const durationMs = endTime - started
      const errorType = endToolSpan(span, {
        result,
        thrown: state.thrown,
        durationMs,
        endTime,
        maxLength: this.#maxLength,
      })
      this.#measure?.(tool, durationMs / 1000, errorType)
    }
    // A run's outcome never rejects; were it to, the pipeline reports it and detaching ends it.
    const watch = (out: RunOutcome | undefined) => {
      if (isThenable(out)) out.then(end, () => {})
      else if (out !== undefined) end(out)
    }
    try {
      watch(this.#inContext(state.context, execute))
    } catch (cause) {
      // The context API threw: the run (`execute` runs it once) still ends this span.
      watch(execute())
      throw cause
    }
  }
}
