'use client'
import { useCallback, useEffect, useRef, useState } from 'react'
import { addAnchor, type Toolmark } from '@toolmark/core'
import { useResolvedToolmark } from './ToolmarkContext'

/** Options of {@link useToolAnchor}. */
export interface UseToolAnchorOptions {
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
}

/**
 * Marks the element a tool (or one of its input fields, `param`) lives in, while it is mounted:
 * `tm.anchor(tool, param)` finds it, tours point at it, and what a person does on it becomes an
 * `interaction` event. Returns a callback ref, the same function while `tool` and `param` stay.
 * Forms made by `useFormTool`, `useWizardTool` and `useDomFormTool` anchor their fields by
 * themselves.
 *
 * @example
 * ```tsx
 * function NewTicketButton() {
 *   const anchor = useToolAnchor('tickets.create')
 *   return <button ref={anchor}>New ticket</button>
 * }
 * ```
 */
export function useToolAnchor<TElement extends Element = Element>(
  tool: string,
  param?: string,
  options: UseToolAnchorOptions = {},
): (element: TElement | null) => void {
  const tm = useResolvedToolmark(options.toolmark, 'useToolAnchor')
  const [element, setElement] = useState<TElement | null>(null)
  // Registered in an effect, not in the ref callback, so StrictMode's extra cycle and a
  // re-rendered ref leave exactly one anchor.
  useEffect(() => {
    if (!element || typeof tool !== 'string') return
    return addAnchor(tm, tool, param, element)
  }, [tm, tool, param, element])
  const latest = useRef(setElement)
  return useCallback((next: TElement | null) => latest.current(next), [])
}
