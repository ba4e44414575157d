'use client'
import { useEffect, useMemo, useSyncExternalStore } from 'react'
import type {
  ApproveOptions,
  ConfirmationAnswer,
  ConfirmationEntry,
  Grant,
  ToolResult,
  Toolmark,
} from '@toolmark/core'
import { useResolvedToolmark } from './ToolmarkContext'

/** Options of {@link useConfirmations}. */
export interface UseConfirmationsOptions {
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
  /**
   * Whether this component shows the confirmations to a person. While at least one presenter is
   * mounted, agents that wait in the page (browser and desktop agents) may call confirmable
   * tools; without one they are refused rather than left waiting. Default `true`.
   */
  presenter?: boolean
}

/** What {@link useConfirmations} returns. */
export interface UseConfirmationsResult {
  /** Pending confirmations, oldest first; the same array until something changes. */
  items: readonly ConfirmationEntry[]
  /**
   * Approves and runs the tool as `human`; resolves with the tool's result. `by` set to `'dialog'`
   * labels an answer from your own Approve button. An entry with `verify` asks the registry's verifier
   * (the person's passkey) first: declined → `refused verification_failed`, still pending.
   */
  approve(id: string, options?: ApproveOptions): Promise<ToolResult>
  /**
   * Answers a question entry (one with `question`, asked by `ctx.ask`): validated against its
   * schema; invalid → `invalid` with issues and it stays pending; taken → `ok(null)`.
   */
  answer(id: string, value: unknown, options?: { by?: 'dialog' }): Promise<ToolResult>
  /** Rejects; the call ends `cancelled operator` (a question is declined). */
  reject(id: string, reason?: string): Promise<ToolResult>
  /**
   * Approves the entries a person selected (or `'all'`), one after another in queue order (each
   * through `approve`, so a passkey is asked for each entry that needs one); resolves with
   * `{ id, result }` per entry in that order. An entry that expired or was withdrawn meanwhile
   * answers `refused confirmation_expired` and the rest still run; entries not named stay
   * pending. `order: 'together'` asks every approval at once.
   */
  approveMany(
    which: readonly string[] | 'all',
    options?: { by?: 'dialog'; order?: 'queue' | 'together' },
  ): Promise<ConfirmationAnswer[]>
  /** Denies the entries named (or `'all'`), in queue order; each call ends `cancelled operator`. */
  rejectMany(which: readonly string[] | 'all', reason?: string): Promise<ConfirmationAnswer[]>
  /**
   * The grants people gave (`approve(id, { grant })`, on a registry made with `grants()`),
   * oldest first: later calls they cover run without asking. The same array until one is made,
   * used, revoked or ends.
   */
  grants: readonly Grant[]
  /** Ends a grant at once (a call it already let through goes on); false when there is none. */
  revokeGrant(id: string): boolean
}

const NONE: readonly ConfirmationEntry[] = Object.freeze([])
const getServerSnapshot = () => NONE
const NO_GRANTS: readonly Grant[] = Object.freeze([])
const getServerGrants = () => NO_GRANTS

/**
 * The registry's pending confirmations, for building your own approval UI (`<ConfirmDialog>` is
 * built on it). Mounting it attaches a presenter, so inline callers may use confirmable tools.
 * Questions (`ctx.ask`) and grants are there when the registry has them:
 * `createToolmark({ confirm: { questions: questions(), grants: grants() } })` from
 * `@toolmark/core`, so an app that never asks or grants does not bundle that code.
 *
 * @example
 * ```tsx
 * function PendingBadge() {
 *   const { items, approve, reject } = useConfirmations()
 *   if (items.length === 0) return null
 *   const first = items[0]
 *   return (
 *     <div role="status">
 *       {first.summary}
 *       <button onClick={() => reject(first.id)}>Deny</button>
 *       <button onClick={() => approve(first.id)}>Approve</button>
 *     </div>
 *   )
 * }
 * ```
 */
export function useConfirmations(options: UseConfirmationsOptions = {}): UseConfirmationsResult {
  return useConfirmationsFor(options, 'useConfirmations')
}

/** {@link useConfirmations} with the caller's name for the missing-provider message. */
export function useConfirmationsFor(
  options: UseConfirmationsOptions,
  caller: string,
): UseConfirmationsResult {
  const tm = useResolvedToolmark(options.toolmark, caller)
  const store = tm.confirmations
  const presenter = options.presenter ?? true

  // Bound here so a store written as a class works as well as the registry's closures.
  const source = useMemo(
    () => ({
      subscribe: (listener: () => void) => store.subscribe(listener),
      getSnapshot: () => store.list(),
      getGrants: () => store.grants(),
    }),
    [store],
  )
  const items = useSyncExternalStore(source.subscribe, source.getSnapshot, getServerSnapshot)
  const grants = useSyncExternalStore(source.subscribe, source.getGrants, getServerGrants)

  useEffect(() => {
    if (!presenter) return
    return store.attachPresenter()
  }, [store, presenter])

  const actions = useMemo(
    () => ({
      approve: (id: string, approveOptions?: ApproveOptions) => store.approve(id, approveOptions),
      answer: (id: string, value: unknown, answerOptions?: { by?: 'dialog' }) =>
        store.answer(id, value, answerOptions),
      reject: (id: string, reason?: string) => store.reject(id, reason),
      approveMany: (
        which: readonly string[] | 'all',
        approveOptions?: { by?: 'dialog'; order?: 'queue' | 'together' },
      ) => store.approveMany(which, approveOptions),
      rejectMany: (which: readonly string[] | 'all', reason?: string) =>
        store.rejectMany(which, reason),
      revokeGrant: (id: string) => store.revokeGrant(id),
    }),
    [store],
  )

  return useMemo(() => ({ items, grants, ...actions }), [items, grants, actions])
}
