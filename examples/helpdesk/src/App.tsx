import { useDeferredValue, useEffect, useRef, useState } from 'react'
import { ConfirmDialog } from '@toolmark/react'
import { ToolmarkDevtools } from '@toolmark/react/devtools'
import { TourOverlay } from '@toolmark/react/tour'
import type { View } from '../shared/ticket.ts'
import { useAccessTools } from './accessTools.ts'
import { ApiError } from './api.ts'
import { useAssistant } from './assistant/useAssistant.ts'
import { AccessRequest } from './components/AccessRequest.tsx'
import { AgentAccess } from './components/AgentAccess.tsx'
import { AssistantPanel } from './components/AssistantPanel.tsx'
import { Banner } from './components/Banner.tsx'
import { Header } from './components/Header.tsx'
import { ChevronLeftIcon, KeyIcon, SparkIcon } from './components/Icons.tsx'
import { Sidebar } from './components/Sidebar.tsx'
import { TicketDetail } from './components/TicketDetail.tsx'
import { TicketForm } from './components/TicketForm.tsx'
import { TicketList } from './components/TicketList.tsx'
import { focusAfterDialog, moveFocus, moveFocusIfLost } from './focus.ts'
import { isNarrow, useNarrow, useShowFilledForm } from './layout.ts'
import { useTicket, useTicketList } from './queries.ts'
import { href, navigate, routeTicketId, useRoute, type Route } from './route.ts'
import { useTicketSync } from './sync.ts'
import { useNotify } from './toast.tsx'
import { useTicketTools } from './tools.ts'
import { useTourNotice } from './useTourNotice.ts'

/** The dialog's one-off approval keeps its plain name beside "Allow for this session". */
const CONFIRM_LABELS = { allowOnce: 'Approve' }

export function App() {
  const route = useRoute()
  const [search, setSearch] = useState('')
  const [view, setView] = useState<View>('active')
  const narrow = useNarrow()
  // A wide screen has room for the assistant beside the work; on a phone it is a drawer.
  const [assistantOpen, setAssistantOpen] = useState(() => !isNarrow())
  const assistantToggle = useRef<HTMLButtonElement>(null)
  // The assistant outlives its panel (closing the drawer does not end its turn), and the dialog's
  // Stop reaches it: the modal dialog blocks the panel's own Stop while it asks.
  const assistant = useAssistant()
  // On a phone, a form the assistant (or any agent) fills comes into view: the drawer steps aside.
  useShowFilledForm(() => setAssistantOpen(false))
  const query = useDeferredValue(search.trim())
  const list = useTicketList(query, view)
  const tools = useTicketTools()
  useAccessTools()
  useTicketSync()
  useTourNotice()
  const selectedId = routeTicketId(route)
  // One pane at a time on a phone: the queue until something is picked, then that.
  const screen = route.name === 'home' ? 'queue' : 'pane'
  const drawer = narrow && assistantOpen

  // The person opening the assistant came to type: focus goes to its composer. Closing it gives
  // focus back to the toggle (once the page behind a drawer is no longer inert). The panel a wide
  // screen opens with, or a drawer an agent's fill puts aside, leaves focus where it is.
  const moveFocusWithAssistant = useRef(false)
  const setAssistantOpenByPerson = (open: boolean) => {
    moveFocusWithAssistant.current = true
    setAssistantOpen(open)
  }
  useEffect(() => {
    if (!moveFocusWithAssistant.current) return
    moveFocusWithAssistant.current = false
    if (assistantOpen) document.querySelector<HTMLElement>('#assistant [data-composer]')?.focus()
    else assistantToggle.current?.focus()
  }, [assistantOpen])

  return (
    <div className="app" data-screen={screen} data-drawer={drawer ? 'open' : undefined}>
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          event.preventDefault()
          moveFocus(screen === 'queue' && narrow ? 'queue' : 'pane')
        }}
      >
        Skip to main content
      </a>
      {/* The page's banner landmark: the showcase's introduction above the top bar. */}
      <header className="app__chrome" inert={drawer || undefined}>
        <Banner />
        <Header
          search={search}
          onSearch={setSearch}
          actions={
            <button
              ref={assistantToggle}
              type="button"
              className="button button--icon-narrow"
              // A column beside the work or a drawer over it: either way it shows and hides the
              // panel, so it says whether the panel is expanded.
              aria-expanded={assistantOpen}
              aria-controls={assistantOpen ? 'assistant' : undefined}
              onClick={() => setAssistantOpenByPerson(!assistantOpen)}
            >
              <SparkIcon /> <span className="button__label">Assistant</span>
            </button>
          }
        />
      </header>
      <div className="workspace">
        <Sidebar
          view={view}
          counts={list.data?.counts}
          onView={setView}
          inert={drawer || undefined}
        >
          <a
            className="button sidebar__action"
            href={href({ name: 'access' })}
            aria-current={route.name === 'access' ? 'page' : undefined}
            onClick={() => moveFocus('pane', 'access')}
          >
            <KeyIcon /> <span className="sidebar__label">Request access</span>
          </a>
        </Sidebar>
        <main id="main" className="main" inert={drawer || undefined}>
          <TicketList
            view={view}
            query={query}
            tickets={list.data?.tickets}
            loading={list.isPending}
            error={list.error}
            selectedId={selectedId}
            isScreen={narrow && screen === 'queue'}
          />
          <div className="pane">
            <a
              className="pane__back"
              href={href({ name: 'home' })}
              onClick={() => moveFocus('queue')}
            >
              <ChevronLeftIcon /> All tickets
            </a>
            <Pane route={route} tools={tools} />
          </div>
        </main>
        {/* Named here: a name taken from its heading would be in the heading's styled capitals. */}
        <aside className="agents" aria-label="Agents" inert={drawer || undefined}>
          <AgentAccess />
        </aside>
        {assistantOpen && (
          <AssistantPanel
            assistant={assistant}
            drawer={drawer}
            onClose={() => setAssistantOpenByPerson(false)}
          />
        )}
      </div>
      {/* "show me how": the tour's panel beside each step; a step's approval asks on top of it. */}
      <TourOverlay />
      {/* The registry makes grants: a close the person trusts can be allowed for the session. */}
      <ConfirmDialog
        labels={CONFIRM_LABELS}
        onStop={assistant.busy ? assistant.stop : undefined}
        returnFocus={focusAfterDialog}
      />
      <ToolmarkDevtools position="bottom-left" />
    </div>
  )
}

function Pane({ route, tools }: { route: Route; tools: ReturnType<typeof useTicketTools> }) {
  const id = routeTicketId(route)
  const ticket = useTicket(id)
  const notify = useNotify()
  const gone = id !== undefined && ticket.error instanceof ApiError && ticket.error.status === 404
  const hadTicket = ticket.data !== undefined

  // A ticket that is not there (deleted in another tab, or never existed) is let go: back to the
  // queue, with a word about why.
  useEffect(() => {
    if (!gone) return
    notify(
      hadTicket
        ? `Ticket #${id} is no longer here: it was deleted, perhaps in another tab.`
        : `Ticket #${id} does not exist.`,
      'info',
    )
    navigate({ name: 'home' })
    moveFocusIfLost('queue')
  }, [gone, hadTicket, id, notify])

  if (route.name === 'home' || route.name === 'new') {
    return (
      <TicketForm
        key="new"
        onSaved={(saved) => {
          navigate({ name: 'ticket', id: saved.id })
          moveFocus('pane', `ticket:${saved.id}`)
        }}
      />
    )
  }
  if (route.name === 'access') {
    return (
      <div data-focus-target="pane" data-focus-key="access">
        <AccessRequest
          key="access"
          onFiled={(saved) => {
            navigate({ name: 'ticket', id: saved.id })
            moveFocus('pane', `ticket:${saved.id}`)
          }}
        />
      </div>
    )
  }
  if (gone) return null
  if (ticket.isPending) return <div className="pane__loading" aria-busy="true" />
  if (ticket.error || !ticket.data) {
    return (
      <div className="pane__empty">
        <h1 data-focus-target="pane" tabIndex={-1}>
          Ticket #{route.id} could not be loaded
        </h1>
        <p>{ticket.error?.message ?? 'Pick another ticket from the list.'}</p>
      </div>
    )
  }
  const current = ticket.data
  if (route.name === 'edit') {
    return (
      <TicketForm
        key={`edit-${current.id}`}
        ticket={current}
        onSaved={(saved) => {
          navigate({ name: 'ticket', id: saved.id })
          moveFocus('pane', `ticket:${saved.id}`)
        }}
        onCancel={() => {
          navigate({ name: 'ticket', id: current.id })
          moveFocus('pane', `ticket:${current.id}`)
        }}
      />
    )
  }
  // The buttons call the same tools agents call, as caller `human` (no dialog: a person acts).
  return (
    <TicketDetail
      key={current.id}
      ticket={current}
      closing={tools.close.status === 'running'}
      deleting={tools.remove.status === 'running'}
      onClose={async () => {
        const result = await tools.close.call({ id: current.id })
        if (result.status === 'ok') {
          notify(`Ticket #${current.id} closed`)
          // The Close button is gone; the ticket's title is where the person was.
          moveFocus('pane', `ticket:${current.id}`)
        } else notify(result.status === 'refused' ? result.message : 'Closing failed', 'error')
      }}
      onDelete={async () => {
        const result = await tools.remove.call({ id: current.id })
        if (result.status === 'ok') {
          notify(`Ticket #${current.id} deleted`)
          moveFocus('queue')
        } else notify(result.status === 'refused' ? result.message : 'Deleting failed', 'error')
      }}
    />
  )
}
