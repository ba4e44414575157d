'use client'
import { useContext, useEffect, useMemo, useRef, type RefObject } from 'react'
import { reportError, type ToolHints, type Toolmark } from '@toolmark/core'
import { createDomFormTools, createFormMemory } from '@toolmark/core/forms'
import type { DomFormToolsOptions, FormToolNames } from '@toolmark/core/forms'
import { useResolvedToolmark } from './ToolmarkContext'
import { ScopeContext, joinScopePath } from './ScopeContext'
import { useIsomorphicLayoutEffect } from './useIsomorphicLayoutEffect'
import { useFormProvenance, withProvenance, type FormProvenanceResult } from './useFormProvenance'

/**
 * Options of {@link useDomFormTool}: those of core's `createDomFormTools`, less the scope (taken
 * from the nearest `<ToolScope>`) and the memory (kept by the hook across registrations).
 */
export interface UseDomFormToolOptions extends Omit<DomFormToolsOptions, 'scope' | 'memory'> {
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
}

// Bundlers replace `process.env.NODE_ENV` with a string literal, so production builds drop the
// development text below; declared here so the kit does not depend on Node's types.
declare const process: { env: { NODE_ENV?: string } }

/** Whether `files` is a plain object where `fileFields({...})` belongs. */
const plainFiles = (files: unknown) =>
  files !== undefined &&
  (typeof files !== 'object' ||
    files === null ||
    (files as { kind?: unknown }).kind !== 'fileFields')

/** What `useDomFormTool` returns: the tools' names and which fields hold an agent's value. */
export interface UseDomFormToolResult extends FormToolNames, FormProvenanceResult {}

/**
 * Serves any HTML `<form>` — uncontrolled, React-controlled, or made with another form library
 * — to agents while the component is mounted, with the rules of `useFormTool`: `<name>.fill`
 * (user edits skipped, all or nothing, undoable, secrets masked), `<name>.submit` (a person
 * confirms the whole submission) and `<name>.state`. The schema is read from the form's controls.
 * `onSubmit` and `submitSummary` always see the latest props. File inputs are served with
 * `files: fileFields({...})`, which brings the file code.
 *
 * @example
 * ```tsx
 * function Contact() {
 *   const ref = useRef<HTMLFormElement>(null)
 *   useDomFormTool(ref, { name: 'contact', description: 'The contact form.' })
 *   return (
 *     <form ref={ref} onSubmit={send}>
 *       <label>Email <input name="email" type="email" required /></label>
 *       <label>Message <textarea name="message" /></label>
 *     </form>
 *   )
 * }
 * // An agent: tm.call('contact.fill', { values: { email: 'ana@example.com' } })
 * ```
 */
export function useDomFormTool(
  formRef: RefObject<HTMLFormElement | null>,
  options: UseDomFormToolOptions,
): UseDomFormToolResult {
  const toolmark = useResolvedToolmark(options.toolmark, 'useDomFormTool')
  const inherited = useContext(ScopeContext)
  const scope = inherited?.toolmark === toolmark ? inherited : null
  const latest = useRef(options)
  useIsomorphicLayoutEffect(() => {
    latest.current = options
  })
  // One memory per mounted form: what the agent wrote outlives registering again.
  const memory = useMemo(() => createFormMemory(), [])
  // What agents see, by value: inline options re-render without registering again.
  const key = JSON.stringify([
    options.name,
    options.description,
    options.title ?? null,
    options.hints ?? null,
    options.sensitive ?? [],
    options.files ?? null,
    typeof options.onSubmit === 'function',
    typeof options.submitSummary === 'function',
  ])

  useEffect(() => {
    const form = formRef.current
    if (!form) {
      if (toolmark.dev) {
        console.warn(
          '[toolmark] useDomFormTool: the ref holds no <form> after mount: pass it to <form ref={ref}>.',
        )
      }
      return
    }
    const [name, description, title, hints, sensitive, , hasSubmit, hasSummary] = JSON.parse(
      key,
    ) as [string, string, string | null, ToolHints | null, string[], unknown, boolean, boolean]
    // Frozen by fileFields() and compared by value in `key`; its code is kept under a symbol.
    const { files } = latest.current
    if (plainFiles(files)) {
      const message =
        process.env.NODE_ENV === 'production'
          ? `useDomFormTool("${name}"): plain files`
          : `useDomFormTool("${name}"): files must come from fileFields({...}) (import { fileFields } from '@toolmark/core/forms')`
      if (toolmark.dev) throw new Error(`[toolmark] ${message}`)
      reportError(toolmark, { code: 'invalid_form', message })
      return
    }
    const tools = createDomFormTools(toolmark, form, {
      name,
      description,
      ...(title !== null ? { title } : {}),
      ...(hints !== null ? { hints } : {}),
      sensitive,
      ...(files ? { files } : {}),
      ...(hasSubmit ? { onSubmit: (values, o) => latest.current.onSubmit!(values, o) } : {}),
      ...(hasSummary ? { submitSummary: (values) => latest.current.submitSummary!(values) } : {}),
      ...(scope ? { scope: scope.acquire() } : {}),
      memory,
    })
    return () => tools.dispose()
  }, [toolmark, scope, key, formRef, memory])

  const provenance = useFormProvenance(memory)
  const base = joinScopePath(scope?.path ?? '', options.name)
  return useMemo(
    () =>
      withProvenance(
        { fill: `${base}.fill`, submit: `${base}.submit`, state: `${base}.state` },
        provenance,
      ),
    // A new object when a read provenance changes (`version`).
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [base, provenance.version, provenance.read, provenance.revertField],
  )
}
