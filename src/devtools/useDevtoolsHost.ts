'use client'
import { useEffect, useState, type RefObject } from 'react'
import { ROOT_ATTRIBUTE } from '../confirm-dialog/rootAttribute'

const isModal = (dialog: HTMLDialogElement) => {
  try {
    return dialog.matches(':modal')
  } catch {
    // Engines without `:modal` (jsdom) only know the attribute.
    return dialog.open
  }
}

/** Where the devtools render, from {@link useDevtoolsHost}. */
export interface DevtoolsHost {
  /** The container to portal into; `null` until mounted (and on the server). */
  container: HTMLElement | null
  /** Counts the stays inside a dialog: a new number each time, `0` while in the page. */
  dialogVisit: number
}

/**
 * The element the devtools render into: a container of their own, placed right after `anchor`
 * (where `<ToolmarkDevtools>` is rendered), and moved into `<ConfirmDialog>` while that dialog is
 * open as a modal. A modal dialog makes the rest of the page inert, so this keeps the devtools
 * (and their Confirmations tab) reachable by keyboard and screen reader: inside the dialog they
 * sit in the top layer and in its tab order. Moving the container keeps every bit of the panel's
 * state, and focus inside it stays put. React never owns the container, so moving it is safe.
 */
export function useDevtoolsHost(anchor: RefObject<Element | null>): DevtoolsHost {
  const [host, setHost] = useState<DevtoolsHost>({ container: null, dialogVisit: 0 })

  useEffect(() => {
    const mark = anchor.current
    if (!mark) return
    const doc = mark.ownerDocument
    const element = doc.createElement('div')
    element.setAttribute('data-toolmark-devtools-host', '')
    mark.after(element)
    let visits = 0
    setHost({ container: element, dialogVisit: 0 })

    const observer = new MutationObserver(() => place())
    const watched = new Set<Element>()
    const place = () => {
      let dialog: HTMLDialogElement | undefined
      for (const found of doc.querySelectorAll<HTMLDialogElement>(`dialog[${ROOT_ATTRIBUTE}]`)) {
        if (found.open && isModal(found)) dialog = found
      }
      const home = dialog === undefined
      if (home ? element.previousSibling === mark : element.parentElement === dialog) return
      const active = doc.activeElement
      const focused = active instanceof HTMLElement && element.contains(active) ? active : null
      if (dialog) dialog.append(element)
      else mark.after(element)
      focused?.focus({ preventScroll: true })
      setHost({ container: element, dialogVisit: home ? 0 : ++visits })
      // The dialog itself too: if it leaves the page before it closes, its `open` still changes.
      if (dialog && !watched.has(dialog)) {
        watched.add(dialog)
        observer.observe(dialog, { attributes: true, attributeFilter: ['open'] })
      }
    }
    place()
    observer.observe(doc.documentElement, {
      subtree: true,
      attributes: true,
      attributeFilter: ['open'],
    })
    return () => {
      observer.disconnect()
      element.remove()
      setHost({ container: null, dialogVisit: 0 })
    }
  }, [anchor])

  return host
}
