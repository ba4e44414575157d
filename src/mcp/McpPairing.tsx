'use client'
import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ComponentPropsWithoutRef,
  type FormEvent,
} from 'react'
import type { Toolmark } from '@toolmark/core'
import {
  DEFAULT_MCP_PORT,
  createMcpPairingObserver,
  type McpPairingSnapshot,
  type McpPairingStatus,
  type McpWebSocketConstructor,
  type TokenStorage,
} from '@toolmark/mcp/client'
import { useResolvedToolmark } from '../ToolmarkContext'

/** Every visible string of {@link McpPairing}, for localization. */
export interface McpPairingLabels {
  title: string
  code: string
  hint: string
  connect: string
  disconnect: string
  idle: string
  connecting: string
  paired: string
  /** A wrong or used code. */
  rejected: string
  expired: string
  /** The stored session was refused (the server restarted or another page paired). */
  sessionEnded: string
  superseded: string
  disconnected: string
  /** The process on the port did not prove it is `toolmark-mcp`; `{port}` is replaced. */
  unverified: string
  /** Nothing answered after the allowed attempts; `{port}` is replaced. */
  unreachable: string
  /** This page has no WebSocket or no WebCrypto (not a secure context). */
  unsupported: string
  /** The `port` prop is not a port (production; development throws); `{port}` is replaced. */
  invalidPort: string
}

const DEFAULT_LABELS: McpPairingLabels = {
  title: 'Connect a desktop agent',
  code: 'Pairing code',
  hint: 'Ask your MCP client (for example Claude Desktop) to run the toolmark_pairing tool, then enter the code it shows.',
  connect: 'Connect',
  disconnect: 'Disconnect',
  idle: 'Not connected.',
  connecting: 'Connecting…',
  paired: 'Connected: the desktop agent can use the tools of this page.',
  rejected: 'That code was not accepted. Check it, or ask for a new one.',
  expired: 'That code has expired. Ask for a new one.',
  sessionEnded: 'The saved connection has ended. Enter a new code.',
  superseded: 'Another page took over the connection.',
  disconnected: 'Connection lost. Reconnecting…',
  unverified:
    'The process on port {port} could not prove it is the paired toolmark-mcp, so this page sent it nothing secret. Check the port, then enter a new code.',
  unreachable:
    'No toolmark-mcp answered on port {port}. Check that your MCP client is running it, then connect again.',
  unsupported:
    'This page cannot connect: pairing needs WebSocket and WebCrypto (https, or http on localhost).',
  invalidPort:
    'This page is set up with "{port}" as the toolmark-mcp port, which is not a port (a whole number from 1 to 65535), so it connects nowhere.',
}

/** Props of {@link McpPairing}; other props go to the root `<form>`. */
export interface McpPairingProps extends Omit<
  ComponentPropsWithoutRef<'form'>,
  'children' | 'onSubmit'
> {
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
  /**
   * Port of `toolmark-mcp` (default 17840, its `--port`): a whole number from 1 to 65535, as a
   * number or a string of digits. Anything else throws in development; in production the form
   * says so and connects nowhere.
   */
  port?: number | string
  /** Overrides any of the visible strings. */
  labels?: Partial<McpPairingLabels>
  /** Called on every status change; `'idle'` means no pairing is running. */
  onStatusChange?: (status: McpPairingStatus | 'idle') => void
  /** WebSocket constructor (default the browser's). */
  WebSocket?: McpWebSocketConstructor
  /** Where the session token is kept (default `localStorage`). */
  storage?: TokenStorage
}

function message(
  state: McpPairingSnapshot,
  labels: McpPairingLabels,
  port: number | string,
): string {
  const text = (label: string) => label.replace(/\{port\}/g, String(port))
  if (state.status !== 'rejected') return text(labels[state.status])
  if (state.reason === 'expired_code') return labels.expired
  if (state.reason === 'bad_token') return labels.sessionEnded
  if (state.reason === 'no_code') return labels.idle
  if (state.reason === 'unsupported') return labels.unsupported
  if (state.reason === 'invalid_port') return text(labels.invalidPort)
  return labels.rejected
}

/**
 * A small form that pairs the page with a local `toolmark-mcp`: the person types the code the
 * desktop agent shows and sees the connection status, including when the process on the port
 * could not prove it is the `toolmark-mcp` that showed the code (nothing secret is sent to it). A stored session resumes on mount, so a
 * reload needs no new code. Keep a `<ConfirmDialog>` mounted too, so the agent's consequential
 * calls can be approved.
 *
 * @example
 * ```tsx
 * <ToolProvider toolmark={tm}>
 *   <McpPairing />
 *   <ConfirmDialog />
 * </ToolProvider>
 * ```
 */
export function McpPairing({
  toolmark,
  port = DEFAULT_MCP_PORT,
  labels: labelsInput,
  onStatusChange,
  WebSocket,
  storage,
  ...rest
}: McpPairingProps) {
  const tm = useResolvedToolmark(toolmark, 'McpPairing')
  const labels = { ...DEFAULT_LABELS, ...labelsInput }
  const [code, setCode] = useState('')
  const id = useId()
  // Made with no side effect: the pairing starts in an effect, and a new registry or port makes a
  // new one.
  const pairing = useMemo(() => createMcpPairingObserver(tm, { port }), [tm, port])
  const state = useSyncExternalStore(pairing.subscribe, pairing.getSnapshot, pairing.getSnapshot)
  const latest = useRef(onStatusChange)
  useEffect(() => {
    latest.current = onStatusChange
    pairing.setOptions({ port, WebSocket, storage })
  })

  // Declared before the pairing's start so that unmounting stops telling first: the stop an
  // unmount makes is not a status change for the parent.
  useEffect(() => {
    let last = pairing.getSnapshot()
    return pairing.subscribe(() => {
      const next = pairing.getSnapshot()
      if (next === last) return
      last = next
      latest.current?.(next.status)
    })
  }, [pairing])

  useEffect(() => {
    // The props of this render, before any `connect` reads them.
    pairing.setOptions({ port, WebSocket, storage })
    pairing.resume()
    return () => pairing.stop()
    // The socket and storage props are read when the pairing (re)starts, like a ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pairing])

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const typed = code.trim()
    if (!typed) return
    setCode('')
    pairing.connect(typed)
  }

  const busy = state.status === 'connecting' || state.status === 'disconnected'
  const paired = state.status === 'paired'

  return (
    <form
      aria-labelledby={`${id}-title`}
      data-toolmark-mcp-pairing=""
      data-status={state.status}
      {...rest}
      onSubmit={onSubmit}
    >
      <p id={`${id}-title`} data-part="title">
        <strong>{labels.title}</strong>
      </p>
      {paired ? null : (
        <p data-part="field">
          <label htmlFor={`${id}-code`}>{labels.code}</label>{' '}
          <input
            id={`${id}-code`}
            name="code"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            placeholder="XXXXX-XXXXX"
            aria-describedby={`${id}-hint`}
            disabled={busy}
          />{' '}
          <button type="submit" disabled={busy || code.trim() === ''}>
            {labels.connect}
          </button>
        </p>
      )}
      {paired ? null : (
        <p id={`${id}-hint`} data-part="hint">
          {labels.hint}
        </p>
      )}
      <p role="status" data-part="status">
        {message(state, labels, port)}
      </p>
      {paired || busy ? (
        <button type="button" onClick={pairing.disconnect}>
          {labels.disconnect}
        </button>
      ) : null}
    </form>
  )
}
