import { bodyOf } from '../base/registryBody'
import type { AnchorElement, InteractionEvent, Toolmark } from '../types'

/** Whether a tour step is done: the field holds a valid value, or the form would submit. */
export interface AnchorCheck {
  done: boolean
  /** What is wrong while it is not done, for the person. */
  message?: string
}

/**
 * Where a tool lives on the page: a form's fields, or an element anchored by hand. Forms made by
 * `useFormTool`, `useWizardTool` and `useDomFormTool` add one for their tools by themselves.
 */
export interface AnchorSource {
  /** The element of the tool (no `param`) or of one of its fields; undefined when it has none. */
  element(param?: string): AnchorElement | undefined
  /** Which of its fields holds `target`: a field's name, `''` for the tool itself, or undefined. */
  locate(target: AnchorElement): string | undefined
  /** Whether the tool (no `param`) or a field is done, for guided tours; absent: any change is. */
  check?(param?: string): AnchorCheck | Promise<AnchorCheck>
  /** The tool's input that writes `value` to the field (a form's fill: `{ values: { … } }`). */
  inputFor?(param: string, value: unknown): unknown
}

/** The events a person's work shows in, listened to on the document while anchors exist. */
const INTERACTIONS = ['input', 'change', 'click', 'submit'] as const

/** How long after a person's click or Enter a form's submit still counts as theirs. */
const ACTIVATION_WINDOW_MS = 1000

/** A person's last click, or Enter in a text field: what it landed on, and when (`Date.now()`). */
interface Activation {
  kind: 'click' | 'enter'
  target: Element
  at: number
}

/**
 * A registry's anchors: the sources by tool, newest last, and the document listeners that turn a
 * person's trusted events on them into `interaction` events. The listeners start with the first
 * source and stop with the last, so a page without anchors listens to nothing.
 */
export class Anchors {
  readonly #sources = new Map<string, AnchorSource[]>()
  readonly #emit: (event: InteractionEvent) => void
  #count = 0
  #document: Document | undefined
  #activation: Activation | undefined

  constructor(emit: (event: InteractionEvent) => void) {
    this.#emit = emit
  }

  /** Adds a source for `tool`; returns its removal (idempotent). */
  add(tool: string, source: AnchorSource): () => void {
    const list = this.#sources.get(tool) ?? []
    list.push(source)
    this.#sources.set(tool, list)
    if (++this.#count === 1) this.#listen()
    let removed = false
    return () => {
      if (removed) return
      removed = true
      const now = this.#sources.get(tool) ?? []
      const at = now.indexOf(source)
      if (at >= 0) now.splice(at, 1)
      if (now.length === 0) this.#sources.delete(tool)
      if (--this.#count === 0) this.#unlisten()
    }
  }

  /** The newest element on the page for the tool or its field. */
  element(tool: string, param?: string): AnchorElement | undefined {
    const list = this.#sources.get(tool) ?? []
    for (let i = list.length - 1; i >= 0; i--) {
      const element = safely(() => list[i].element(param))
      if (element && element.isConnected !== false) return element
    }
    return undefined
  }

  /** The newest source of the tool that can tell whether it (or a field) is done. */
  checker(tool: string): AnchorSource['check'] | undefined {
    const list = this.#sources.get(tool) ?? []
    for (let i = list.length - 1; i >= 0; i--) {
      const source = list[i]
      if (typeof source.check === 'function') return (param) => source.check!(param)
    }
    return undefined
  }

  /** The newest source of the tool that knows how its input writes one field. */
  inputFor(tool: string): AnchorSource['inputFor'] | undefined {
    const list = this.#sources.get(tool) ?? []
    for (let i = list.length - 1; i >= 0; i--) {
      const source = list[i]
      if (typeof source.inputFor === 'function')
        return (param, value) => source.inputFor!(param, value)
    }
    return undefined
  }

  #listen(): void {
    const doc = (globalThis as { document?: Document }).document
    if (!doc || typeof doc.addEventListener !== 'function') return
    this.#document = doc
    for (const type of INTERACTIONS) doc.addEventListener(type, this.#onEvent, true)
    doc.addEventListener('keydown', this.#onKeydown, true)
  }

  #unlisten(): void {
    const doc = this.#document
    this.#document = undefined
    for (const type of INTERACTIONS) doc?.removeEventListener(type, this.#onEvent, true)
    doc?.removeEventListener('keydown', this.#onKeydown, true)
    this.#activation = undefined
  }

  /** Enter in a field submits its form (implicit submission): it activates like a click. */
  readonly #onKeydown = (event: Event): void => {
    if (!event.isTrusted || (event as KeyboardEvent).key !== 'Enter') return
    const target = event.target as Element | null
    if (target?.tagName === 'INPUT') this.#activation = { kind: 'enter', target, at: Date.now() }
  }

  /**
   * Whether a trusted `submit` is the person's. Browsers mark every submit trusted, even one that
   * `form.requestSubmit()` or a script's `button.click()` set off, so trust alone does not tell.
   * It counts only right after (`ACTIVATION_WINDOW_MS`) the person's own trusted click on the
   * submit's submitter, or their Enter in a field of that form; and, where the browser tells
   * (`navigator.userActivation`), while it still holds their activation. One activation counts
   * for one submit at most, so a script cannot submit again on the person's click.
   */
  #personSubmitted(event: Event, form: Element): boolean {
    const last = this.#activation
    this.#activation = undefined
    if (!last || Date.now() - last.at > ACTIVATION_WINDOW_MS) return false
    const submitter = (event as SubmitEvent).submitter as Element | null | undefined
    const activated =
      last.kind === 'click'
        ? submitter != null && submitter.contains(last.target)
        : (last.target as { form?: unknown }).form === form
    if (!activated) return false
    const nav = (globalThis as { navigator?: { userActivation?: { isActive?: boolean } } })
      .navigator
    return safely(() => nav?.userActivation?.isActive) !== false
  }

  /** A person's event: one `interaction` per tool it landed in, naming the field when it has one. */
  readonly #onEvent = (event: Event): void => {
    // A script's events (a fill's, an agent's `dispatchEvent`) are not the person's.
    if (!event.isTrusted) return
    const target = event.target as Element | null
    if (!target || typeof (target as Element).closest !== 'function') return
    const type = event.type as InteractionEvent['type']
    if (type === 'click') this.#activation = { kind: 'click', target, at: Date.now() }
    if (type === 'submit' && !this.#personSubmitted(event, target)) return
    for (const [tool, list] of [...this.#sources]) {
      let found: string | undefined
      for (const source of list) {
        const param = safely(() => source.locate(target))
        // A field is more precise than the tool around it.
        if (param !== undefined && (found === undefined || found === '')) found = param
      }
      if (found === undefined) continue
      this.#emit(found === '' ? { tool, type } : { tool, param: found, type })
    }
  }
}

function safely<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch {
    return undefined
  }
}

/**
 * The anchors of a registry made by `createToolmark`, once one was added (its body holds them):
 * `undefined` before. No `instanceof` check, so an entry that only reads anchors (a tour) does not
 * bundle this class.
 */
export const anchorsOf = (tm: Toolmark): Anchors | undefined =>
  bodyOf(tm)?.anchors as Anchors | undefined

/**
 * Marks where a tool (or one of its fields, `param`) lives: `tm.anchor(tool, param)` finds it and
 * a person's events on it become `interaction` events. Returns the removal. `useToolAnchor` is
 * the React way to call it.
 *
 * @example
 * const remove = addAnchor(tm, 'tickets.create', undefined, document.querySelector('#new')!)
 */
export function addAnchor(
  tm: Toolmark,
  tool: string,
  param: string | undefined,
  element: AnchorElement,
): () => void {
  return addAnchorSource(tm, tool, {
    element: (asked) => (asked === param ? element : undefined),
    locate: (target) => (element.contains(target) ? (param ?? '') : undefined),
  })
}

/** Adds a whole {@link AnchorSource} for a tool, as forms do for their fields. */
export function addAnchorSource(tm: Toolmark, tool: string, source: AnchorSource): () => void {
  const body = bodyOf(tm)
  if (!body) return () => {}
  const anchors = (body.anchors ??= new Anchors(body.interaction)) as Anchors
  return anchors.add(tool, source)
}
