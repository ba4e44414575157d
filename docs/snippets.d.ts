// The example app the TypeScript blocks of README.md and docs/ are written against: its registry,
// its API client, its components and schemas. `scripts/docSnippets.mjs` type-checks every block
// with these names in scope, and nothing else: everything a block takes from Toolmark, React,
// zod or another library it imports itself, as a reader's file would. docs/getting-started.md
// gets none of them (SELF_CONTAINED in docSnippets.mjs): its blocks define every name they use.
import type { ComponentType, ReactNode } from 'react'
import type { IncomingMessage, Server } from 'node:http'
import type { LanguageModel, ModelMessage, UIMessage } from 'ai'
import type { ChatModelAdapter } from '@assistant-ui/react'
import type { ToolDefinition, Toolmark } from '@toolmark/core'
import type { PageClient } from '@toolmark/core/agent'
import type { z } from 'zod'

interface Ticket {
  id: number
  title: string
  status: 'open' | 'closed'
}
interface Todo {
  id: number
  title: string
}

declare global {
  /** The app's registry (`createToolmark()` in toolmark.ts). */
  const tm: Toolmark
  /** The agent's side of a page connection (`createPageClient(…)`). */
  const client: PageClient
  /** The app's HTTP API client. */
  const api: {
    tickets(signal?: AbortSignal): Promise<Ticket[]>
    close(id: number, options?: { signal?: AbortSignal }): Promise<Ticket>
    delete(id: number, options?: { signal?: AbortSignal }): Promise<{ deleted: number }>
    addTodo(title: string, signal?: AbortSignal): Promise<Todo>
    deleteTodo(id: number): Promise<void>
    refund(amount: number, options?: { signal?: AbortSignal }): Promise<{ refunded: number }>
    requestAccess(values: unknown): Promise<{ id: number }>
  }
  /** A tool definition, as `tm.register` takes it: closes a ticket by id. */
  const closeTicket: ToolDefinition<{ id: number }, { id: number; status: 'closed' }>
  /** A fake network for tests (`fetch` answered in memory). */
  const fakeServer: { fetch: typeof fetch }
  const tickets: Map<number, Ticket>
  const user: { canEdit: boolean }
  const model: LanguageModel
  const messages: ModelMessage[]
  const modelAdapter: ChatModelAdapter
  const server: Server
  const APP_ORIGIN: string
  const frame: HTMLIFrameElement
  function authenticate(request: IncomingMessage): { userId: string } | undefined
  function reportToSentry(error: unknown, context: { tool?: string }): void
  function searchPeople(
    query: string,
    options: { signal: AbortSignal },
  ): Promise<{ value: string; title: string }[]>
  function useSaveTicket(): (values: unknown) => Promise<{ id: number }>
  const ticketSchema: z.ZodObject<{
    title: z.ZodString
    priority: z.ZodEnum<{ low: 'low'; normal: 'normal'; high: 'high' }>
  }>
  const whoSchema: z.ZodObject<{ email: z.ZodString; name: z.ZodString }>
  const systemSchema: z.ZodObject<{
    system: z.ZodEnum<{ vpn: 'vpn'; payroll: 'payroll' }>
    token: z.ZodOptional<z.ZodString>
  }>
  const App: ComponentType
  const WhoFields: ComponentType<{ form: unknown }>
  const SystemFields: ComponentType<{ form: unknown }>
  const WhyFields: ComponentType<{ form: unknown }>
  const Thread: ComponentType
  const TicketForm: ComponentType
  const TicketEditor: ComponentType
  const TicketList: ComponentType
  const Tickets: ComponentType
  const Todos: ComponentType
  const TicketTable: ComponentType<{ rows: Ticket[] }>
  const Toolbar: ComponentType<{ children?: ReactNode }>
  const Button: ComponentType<{
    children?: ReactNode
    onClick?: () => void
    disabled?: boolean
    variant?: 'primary'
    ref?: React.Ref<HTMLButtonElement>
  }>
  type AppUIMessage = UIMessage
}

export {}
