'use client'
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { createPortal } from 'react-dom'
import type { Caller } from '@toolmark/core'
import { useResolvedToolmark } from '../ToolmarkContext'
import { useAgentActivity } from '../useAgentActivity'
import { useConfirmationsFor } from '../useConfirmations'
import { ActivityTab } from './ActivityTab'
import { CallTab, initialCallState, type CallState } from './CallTab'
import { ConfirmationsTab } from './ConfirmationsTab'
import { DEVTOOLS_ATTRIBUTE, devtoolsCss } from './devtoolsStyles'
import { Tabs, type TabSpec } from './Tabs'
import { ToolsTab } from './ToolsTab'
import type { ToolmarkDevtoolsProps } from './devtoolsProps'
import { useManifest } from './useManifest'
import { useAppColorScheme } from '../theme/useAppColorScheme'
import { useDevtoolsHost } from './useDevtoolsHost'

type TabId = 'tools' | 'call' | 'activity' | 'confirmations'

/**
 * The devtools themselves: a toggle button and a floating panel with four tabs, rendered where
 * they are mounted, or inside `<ConfirmDialog>` while it is open (see {@link useDevtoolsHost}).
 * Only reachable through `<ToolmarkDevtools>` outside production builds.
 */
export function DevtoolsPanel({
  initialIsOpen = false,
  position = 'bottom-right',
  colorScheme = 'system',
  activityLimit = 50,
  toolmark,
}: ToolmarkDevtoolsProps) {
  const tm = useResolvedToolmark(toolmark, '<ToolmarkDevtools>')
  const anchor = useRef<HTMLSpanElement | null>(null)
  const { container: host, dialogVisit } = useDevtoolsHost(anchor)
  const [wantsOpen, setOpen] = useState(initialIsOpen)
  // While a confirmation dialog is open the panel steps aside (only the toggle shows, in the
  // dialog's tab order), so the request stays readable; opening it there shows it over the
  // dialog, and it comes back by itself once the dialog closes.
  const [openedInVisit, setOpenedInVisit] = useState(0)
  const open = wantsOpen && (dialogVisit === 0 || openedInVisit === dialogVisit)
  const [tab, setTab] = useState<TabId>('tools')
  const [caller, setCaller] = useState<Caller>('inapp')
  const [call, setCall] = useState<CallState>(initialCallState)
  const manifest = useManifest(tm, caller)
  // Kept while closed, so the log covers every call made since the devtools mounted.
  const activity = useAgentActivity({ toolmark: tm, limit: activityLimit })
  // A presenter only while a person can see the panel: agents that wait in the page must not
  // wait on a list nobody looks at.
  const confirmations = useConfirmationsFor({ toolmark: tm, presenter: open }, '<ToolmarkDevtools>')
  const pending = confirmations.items.length

  const idPrefix = useId()
  const panelId = `${idPrefix}-panel`
  const headingId = `${idPrefix}-heading`
  const toggleRef = useRef<HTMLButtonElement | null>(null)
  const selectedTab = useRef<HTMLButtonElement | null>(null)
  const focusTabOnOpen = useRef(false)
  const root = useRef<HTMLElement | null>(null)

  // Back from a dialog that took focus with it (what had focus was in the panel, which stepped
  // aside): focus goes to the panel's selected tab rather than nowhere.
  const lastVisit = useRef(dialogVisit)
  useEffect(() => {
    const returned = lastVisit.current !== 0 && dialogVisit === 0
    lastVisit.current = dialogVisit
    const active = root.current?.ownerDocument.activeElement
    if (returned && open && focusIsLost(active)) selectedTab.current?.focus()
  }, [dialogVisit, open])
  const appScheme = useAppColorScheme(root, colorScheme === 'system' && host !== null)

  const show = (next: boolean) => {
    setOpen(next)
    setOpenedInVisit(next ? dialogVisit : 0)
    focusTabOnOpen.current = next
    if (!next) toggleRef.current?.focus()
  }

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return
    event.preventDefault()
    show(false)
  }

  const tabs = devtoolsTabs(pending)

  const panel = (
    <aside
      ref={root}
      {...{ [DEVTOOLS_ATTRIBUTE]: '' }}
      data-position={position}
      data-color-scheme={colorScheme}
      data-app-color-scheme={colorScheme === 'system' ? appScheme : undefined}
      aria-label="Toolmark devtools"
    >
      <style>{devtoolsCss}</style>
      {open ? (
        <section id={panelId} data-part="panel" aria-labelledby={headingId} onKeyDown={onKeyDown}>
          <div data-part="header">
            <h2 id={headingId}>Toolmark</h2>
            <button type="button" onClick={() => show(false)}>
              Close
            </button>
          </div>
          <Tabs
            idPrefix={idPrefix}
            label="Devtools sections"
            tabs={tabs}
            selected={tab}
            onSelect={setTab}
            tabRef={(node) => {
              selectedTab.current = node
              if (node && focusTabOnOpen.current) {
                focusTabOnOpen.current = false
                node.focus()
              }
            }}
          >
            {tab === 'tools' ? (
              <ToolsTab
                tm={tm}
                manifest={manifest}
                caller={caller}
                onCallerChange={setCaller}
                onTry={(name) => {
                  setCall((s) => ({ ...s, tool: name }))
                  setTab('call')
                }}
              />
            ) : tab === 'call' ? (
              <CallTab
                tm={tm}
                manifest={manifest}
                caller={caller}
                onCallerChange={setCaller}
                state={call}
                setState={setCall}
                onShowConfirmations={() => setTab('confirmations')}
              />
            ) : tab === 'activity' ? (
              <ActivityTab activity={activity} />
            ) : (
              <ConfirmationsTab confirmations={confirmations} />
            )}
          </Tabs>
        </section>
      ) : null}
      <button
        ref={toggleRef}
        type="button"
        data-part="toggle"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => show(!open)}
      >
        Toolmark devtools
        {pending > 0 ? <span data-part="count">{pending} pending</span> : null}
      </button>
    </aside>
  )

  return (
    <>
      {/* Marks the devtools' place in the page; the panel itself lives in a movable container. */}
      <span ref={anchor} hidden data-toolmark-devtools-anchor="" />
      {host ? createPortal(panel, host) : null}
    </>
  )
}

/** The panel's four tabs; the Confirmations one carries a badge while requests are pending. */
function devtoolsTabs(pending: number): TabSpec<TabId>[] {
  return [
    { id: 'tools', label: 'Tools' },
    { id: 'call', label: 'Call' },
    { id: 'activity', label: 'Activity' },
    {
      id: 'confirmations',
      label: (
        <>
          Confirmations
          {pending > 0 ? (
            <>
              {' '}
              <span data-part="badge" data-tone="danger">
                {pending}
              </span>
            </>
          ) : null}
        </>
      ),
    },
  ]
}

/** Nothing usable has focus: the page itself, or an element that is gone or no longer shown. */
function focusIsLost(active: Element | null | undefined): boolean {
  if (!active || active === active.ownerDocument.body || !active.isConnected) return true
  return typeof active.checkVisibility === 'function' && !active.checkVisibility()
}
