'use client'
import { useState, type RefObject } from 'react'
import { useIsomorphicLayoutEffect } from '../useIsomorphicLayoutEffect'

/** The scheme an app declares around an element, or none when it follows the system. */
export type AppColorScheme = 'light' | 'dark' | undefined

/** Reads a `color-scheme` value: one scheme only is a declaration; both, or none, follow the system. */
function parseScheme(value: string | null | undefined): AppColorScheme {
  const words = (value ?? '').toLowerCase().split(/\s+/)
  const light = words.includes('light')
  const dark = words.includes('dark')
  return dark && !light ? 'dark' : light && !dark ? 'light' : undefined
}

/** The scheme declared around `element`: its parent's `color-scheme`, else the page's meta tag. */
export function appColorScheme(element: Element): AppColorScheme {
  const doc = element.ownerDocument
  const view = doc.defaultView
  const around = element.parentElement ?? doc.documentElement
  if (!view || !around) return undefined
  const computed = view.getComputedStyle(around).colorScheme
  if (computed && computed !== 'normal') return parseScheme(computed)
  return parseScheme(doc.querySelector('meta[name="color-scheme"]')?.getAttribute('content'))
}

/**
 * The color scheme the app declares where `ref`'s element sits (`color-scheme: dark` on the
 * root, a dark theme class that sets it, `<meta name="color-scheme">`), kept current while
 * `active` by watching the attributes of `<html>` and `<body>`, where theme switches happen.
 * `undefined` when the app declares both schemes or none: the system preference decides then.
 */
export function useAppColorScheme(ref: RefObject<Element | null>, active: boolean): AppColorScheme {
  const [scheme, setScheme] = useState<AppColorScheme>(undefined)
  // Before paint, so a dialog opening in a dark app never flashes light.
  useIsomorphicLayoutEffect(() => {
    const element = ref.current
    if (!active || !element) return
    const read = () => setScheme(appColorScheme(element))
    read()
    const doc = element.ownerDocument
    const observer = new MutationObserver(read)
    observer.observe(doc.documentElement, { attributes: true })
    if (doc.body) observer.observe(doc.body, { attributes: true })
    return () => observer.disconnect()
  }, [ref, active])
  return scheme
}
