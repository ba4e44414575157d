import { useCallback, useEffect } from 'react'
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form'

/**
 * Keeps what a person typed into a form in `sessionStorage` under `key` (this tab only), so a
 * reload does not lose a half-written ticket. Restored values count as the person's edits
 * (dirty), so an agent's fill skips them as it skips anything typed by hand. `clear()` forgets
 * the draft once it is saved or abandoned.
 */
export function useDraft<T extends FieldValues>(
  form: UseFormReturn<T>,
  key: string,
  defaults: T,
): { clear(): void } {
  useEffect(() => {
    const saved = read(key)
    if (saved) {
      for (const field of Object.keys(defaults) as Path<T>[]) {
        const value = saved[field]
        if (typeof value === typeof defaults[field] && value !== defaults[field]) {
          form.setValue(field, value as PathValue<T, Path<T>>, { shouldDirty: true })
        }
      }
    }
    const watching = form.watch((values) => {
      const changed = Object.keys(defaults).some((field) => values[field] !== defaults[field])
      try {
        if (changed) sessionStorage.setItem(key, JSON.stringify(values))
        else sessionStorage.removeItem(key)
      } catch {
        // Storage full or blocked: the draft just does not survive a reload.
      }
    })
    return () => watching.unsubscribe()
    // `defaults` is read once per form: a new object for the same form must not restore again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [form, key])

  const clear = useCallback(() => {
    try {
      sessionStorage.removeItem(key)
    } catch {}
  }, [key])
  return { clear }
}

function read(key: string): Record<string, unknown> | undefined {
  try {
    const raw = sessionStorage.getItem(key)
    const value: unknown = raw ? JSON.parse(raw) : undefined
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}
