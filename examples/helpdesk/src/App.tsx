import { useDeferredValue, useState } from 'react'
import { ConfirmDialog } from '@toolmark/react'
import { ToolmarkDevtools } from '@toolmark/react/devtools'
import type { View } from '../shared/ticket.ts'
import { useAccessTools } from './accessTools.ts'
import { AccessRequest } from './components/AccessRequest.tsx'
import { AgentAccess } from './components/AgentAccess.tsx'
import { AssistantPanel } from './components/AssistantPanel.tsx'
import { Header } from './components/Header.tsx'
import { SparkIcon } from './components/Icons.tsx'
import { Sidebar } from './components/Sidebar.tsx'
import { TicketDetail } from './components/TicketDetail.tsx'
import { TicketForm } from './components/TicketForm.tsx'
import { TicketList } from './components/TicketList.tsx'
import { useTicket, useTicketList } from './queries.ts'
import { href, navigate, routeTicketId, useRoute, type Route } from './route.ts'
import { useNotify } from './toast.tsx'
import { useTicketTools } from './tools.ts'

export function App() {
  const route = useRoute()
  const [search, setSearch] = useState('')
  const [view, setView] = useState<View>('active')
  const [assistantOpen, setAssistantOpen] = useState(true)
  const query = useDeferredValue(search.trim())
  const list = useTicketList(query, view)
  const tools = useTicketTools()
  useAccessTools()
  const selectedId = routeTicketId(route)

  return (
    <div className="app">
      <Header
        search={search}
        onSearch={setSearch}
        actions={
          <button
            type="button"
            className="button"
            aria-pressed={assistantOpen}
            onClick={() => setAssistantOpen((open) => !open)}
          >
            <SparkIcon /> Assistant
          </button>
        }
      />
      <div className="workspace">
        <Sidebar view={view} counts={list.data?.counts} onView={setView}>
          <a
            className="button sidebar__action"
            href={href({ name: 'access' })}
            aria-current={route.name === 'access' ? 'page' : undefined}
          >
            Request access
          </a>
          <AgentAccess />
        </Sidebar>
        <TicketList
          view={view}
          query={query}
          tickets={list.data?.tickets}
          loading={list.isPending}
          error={list.error}
          selectedId={selectedId}
        />
        <main className="pane">
          <Pane route={route} tools={tools} />
        </main>
        {assistantOpen && <AssistantPanel />}
      </div>
      <ConfirmDialog colorScheme="light" />
      <ToolmarkDevtools position="bottom-left" colorScheme="light" />
    </div>
  )
}

function Pane({ route, tools }: { route: Route; tools: ReturnType<typeof useTicketTools> }) {
  const ticket = useTicket(routeTicketId(route))
  const notify = useNotify()

  if (route.name === 'access') {
    return (
      <AccessRequest key="access" onFiled={(saved) => navigate({ name: 'ticket', id: saved.id })} />
    )
  }
  if (route.name === 'new') {
    return <TicketForm key="new" onSaved={(saved) => navigate({ name: 'ticket', id: saved.id })} />
  }
  if (ticket.isPending) return <div className="pane__loading" aria-busy="true" />
  if (ticket.error || !ticket.data) {
    return (
      <div className="pane__empty">
        <h1>Ticket #{route.id} is not here</h1>
        <p>It may have been deleted. Pick another ticket from the list.</p>
      </div>
    )
  }
  const current = ticket.data
  if (route.name === 'edit') {
    return (
      <TicketForm
        key={`edit-${current.id}`}
        ticket={current}
        onSaved={(saved) => navigate({ name: 'ticket', id: saved.id })}
        onCancel={() => navigate({ name: 'ticket', id: current.id })}
      />
    )
  }
  // The buttons call the same tools agents call, as caller `human` (no dialog: a person acts).
  return (
    <TicketDetail
      ticket={current}
      closing={tools.close.status === 'running'}
      deleting={tools.remove.status === 'running'}
      onClose={async () => {
        const result = await tools.close.call({ id: current.id })
        if (result.status === 'ok') notify(`Ticket #${current.id} closed`)
        else notify(result.status === 'refused' ? result.message : 'Closing failed', 'error')
      }}
      onDelete={async () => {
        const result = await tools.remove.call({ id: current.id })
        if (result.status === 'ok') notify(`Ticket #${current.id} deleted`)
        else notify(result.status === 'refused' ? result.message : 'Deleting failed', 'error')
      }}
    />
  )
}
