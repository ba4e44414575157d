import type { ErrorEvent } from '../types'

/**
 * The one subscribe contract of Toolmark, after TanStack Query's `Subscribable`: listeners in a
 * `Set`, `subscribe(fn)` returns an unsubscribe and is safe to pass bare to
 * `useSyncExternalStore`, and one rule for listeners that throw: each is isolated, reported as a
 * `listener_threw` error event, and the others still run. The registry's `subscribe`, the
 * confirmation store and the observers of `@toolmark/core/observers` all notify through it.
 * Subclasses start and stop their upstream listening in {@link Subscribable.onFirst} and
 * {@link Subscribable.onLast}; {@link createSubscribable} makes one from callbacks.
 */
export abstract class Subscribable<TArgs extends unknown[] = []> {
  // Each subscription is known by its unsubscribe function, so one listener subscribed twice is
  // two subscriptions.
  readonly #listeners = new Map<() => void, (...args: TArgs) => void>()

  /**
   * Adds a listener and returns its unsubscribe (idempotent). Each call is its own subscription,
   * so one function subscribed twice is unsubscribed once each.
   */
  readonly subscribe = (listener: (...args: TArgs) => void): (() => void) => {
    const off = () => this.#remove(off)
    this.#listeners.set(off, listener)
    if (this.#listeners.size === 1) this.onFirst()
    return off
  }

  /** How many subscriptions are open. */
  get size(): number {
    return this.#listeners.size
  }

  /**
   * Calls the listeners subscribed now, oldest first. One removed meanwhile is skipped; one added
   * meanwhile waits for the next notification.
   */
  notify(...args: TArgs): void {
    const listeners = this.#listeners
    if (listeners.size === 0) return
    for (const [off, listener] of [...listeners]) {
      if (listeners.has(off)) this.#call(listener, args)
    }
  }

  #call(listener: (...args: TArgs) => void, args: TArgs) {
    try {
      listener(...args)
    } catch (cause) {
      this.report({ code: 'listener_threw', message: `A ${this.label} listener threw`, cause })
    }
  }

  #remove(off: () => void) {
    if (this.#listeners.delete(off) && this.#listeners.size === 0) this.onLast()
  }

  /** Names the listeners in reports: `A <label> listener threw`. */
  protected abstract readonly label: string
  /** Where a throwing listener goes (usually the registry's `error` event). */
  protected abstract report(event: ErrorEvent): void
  /** The first subscription opened: start listening upstream here, not before. */
  protected onFirst(): void {}
  /** The last subscription closed: undo exactly what {@link Subscribable.onFirst} did. */
  protected onLast(): void {}
}

/** Options of {@link createSubscribable}. */
export interface SubscribableOptions {
  /** Where a throwing listener is reported (usually the registry's `error` event). */
  report(event: ErrorEvent): void
  /** Names the listeners in the report: `A <label> listener threw`. */
  label: string
  /** Runs when the first subscription opens. */
  onFirst?(): void
  /** Runs when the last subscription closes. */
  onLast?(): void
}

class CallbackSubscribable<TArgs extends unknown[]> extends Subscribable<TArgs> {
  readonly #options: SubscribableOptions
  protected readonly label: string
  constructor(options: SubscribableOptions) {
    super()
    this.#options = options
    this.label = options.label
  }
  protected report(event: ErrorEvent) {
    this.#options.report(event)
  }
  protected override onFirst() {
    this.#options.onFirst?.()
  }
  protected override onLast() {
    this.#options.onLast?.()
  }
}

/**
 * A {@link Subscribable} from callbacks.
 *
 * @example
 * const changes = createSubscribable({ label: 'store', report: (e) => reportError(tm, e) })
 * const off = changes.subscribe(() => render())
 * changes.notify()
 * off()
 */
export function createSubscribable<TArgs extends unknown[] = []>(
  options: SubscribableOptions,
): Subscribable<TArgs> {
  return new CallbackSubscribable<TArgs>(options)
}
