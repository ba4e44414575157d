/** How a {@link Registration} decides and registers. Usually one shared object per kind of declaration. */
export interface RegistrationRules<TDeclaration> {
  /** Whether going from the registered declaration to `next` needs a new registration. */
  changed(registered: TDeclaration, next: TDeclaration): boolean
  /**
   * Registers `declaration` and returns its handle (a tool's, a form's). Callbacks that must see the latest
   * declaration (a tool's `run`, a form's `onSubmit`) read `registration.current` when they run,
   * so a re-render is never a reason to register again.
   */
  register(declaration: TDeclaration, registration: Registration<TDeclaration>): { dispose(): void }
}

/**
 * Something registered while started, and registered again only when its declaration changes in
 * a way its rules say matters: the decision a framework binding needs for a declaration written
 * in a render function. Nothing is registered until {@link Registration.start}; the constructor
 * only stores.
 *
 * @example
 * const registration = createRegistration(declaration, {
 *   changed: (a, b) => a.name !== b.name,
 *   register: (d, r) => tm.register({ ...d, run: (i, c) => r.current.run(i, c) }),
 * })
 * const stop = registration.start()
 * registration.update(nextDeclaration) // registers again only if the name changed
 * stop()
 */
export class Registration<TDeclaration> {
  #current: TDeclaration
  #registered: TDeclaration
  #handle: { dispose(): void } | undefined
  #starts = 0
  readonly #rules: RegistrationRules<TDeclaration>

  constructor(initial: TDeclaration, rules: RegistrationRules<TDeclaration>) {
    this.#current = this.#registered = initial
    this.#rules = rules
  }

  /** The latest declaration pushed with {@link Registration.update} (or the initial one). */
  get current(): TDeclaration {
    return this.#current
  }

  /** Whether a registration is in place. */
  get started(): boolean {
    return this.#starts > 0
  }

  /**
   * Takes the latest declaration. While started, registers again when the rules say the change
   * matters; returns whether it did. Call it from an effect, never during render.
   */
  update(next: TDeclaration): boolean {
    this.#current = next
    if (this.#starts === 0 || !this.#rules.changed(this.#registered, next)) return false
    this.#stop()
    this.#register()
    return true
  }

  /**
   * Registers the current declaration; the returned stop unregisters. Starts are counted: the
   * registration stays while any is open, and each stop works once.
   */
  start(): () => void {
    this.acquire()
    let open = true
    return () => {
      if (!open) return
      open = false
      this.release()
    }
  }

  /** {@link Registration.start} without the stop function: pair each with one `release()`. */
  acquire(): void {
    if (++this.#starts === 1) this.#register()
  }

  /** Ends one {@link Registration.acquire}; the last one unregisters. */
  release(): void {
    if (this.#starts === 0) return
    if (--this.#starts === 0) this.#stop()
  }

  #register() {
    this.#registered = this.#current
    this.#handle = this.#rules.register(this.#current, this)
  }

  #stop() {
    const handle = this.#handle
    this.#handle = undefined
    handle?.dispose()
  }
}

/** A {@link Registration} of `initial` under `rules`. */
export function createRegistration<TDeclaration>(
  initial: TDeclaration,
  rules: RegistrationRules<TDeclaration>,
): Registration<TDeclaration> {
  return new Registration(initial, rules)
}
