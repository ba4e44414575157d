import { useRef, type KeyboardEvent, type ReactNode } from 'react'

export interface TabSpec<TId extends string> {
  id: TId
  label: ReactNode
}

/**
 * Tabs in the ARIA pattern: a `tablist` of `tab` buttons with a roving tab stop, arrow keys
 * (and Home/End) move and select at once, and one `tabpanel` per tab (only the selected one
 * rendered, the others present and hidden so every `aria-controls` points somewhere).
 */
export function Tabs<TId extends string>({
  idPrefix,
  label,
  tabs,
  selected,
  onSelect,
  tabRef,
  children,
}: {
  idPrefix: string
  label: string
  tabs: readonly TabSpec<TId>[]
  selected: TId
  onSelect: (id: TId) => void
  /** Receives the selected tab's button, to move focus there. */
  tabRef?: (node: HTMLButtonElement | null) => void
  children: ReactNode
}) {
  const buttons = useRef(new Map<TId, HTMLButtonElement>())
  const tabId = (id: TId) => `${idPrefix}-tab-${id}`
  const panelId = (id: TId) => `${idPrefix}-panel-${id}`

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.id === selected)
    const last = tabs.length - 1
    const rtl = getComputedStyle(event.currentTarget).direction === 'rtl'
    const next: Record<string, number> = {
      ArrowRight: rtl ? index - 1 : index + 1,
      ArrowLeft: rtl ? index + 1 : index - 1,
      Home: 0,
      End: last,
    }
    if (!(event.key in next)) return
    event.preventDefault()
    const target = tabs[(next[event.key] + tabs.length) % tabs.length]
    onSelect(target.id)
    buttons.current.get(target.id)?.focus()
  }

  return (
    <>
      <div role="tablist" aria-label={label} onKeyDown={onKeyDown}>
        {tabs.map((tab) => {
          const isSelected = tab.id === selected
          return (
            <button
              key={tab.id}
              ref={(node) => {
                if (node) buttons.current.set(tab.id, node)
                else buttons.current.delete(tab.id)
                if (isSelected) tabRef?.(node)
              }}
              type="button"
              role="tab"
              id={tabId(tab.id)}
              aria-selected={isSelected}
              aria-controls={panelId(tab.id)}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => onSelect(tab.id)}
            >
              {tab.label}
            </button>
          )
        })}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={panelId(tab.id)}
          aria-labelledby={tabId(tab.id)}
          hidden={tab.id !== selected}
          tabIndex={0}
        >
          {tab.id === selected ? children : null}
        </div>
      ))}
    </>
  )
}
