import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react'

export interface Toast {
  id: number
  message: string
  tone: 'success' | 'error' | 'info'
}

const ToastContext = createContext<(message: string, tone?: Toast['tone']) => void>(() => {})

/** Short notices in the corner ("Ticket #13 created"); each fades after a few seconds. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([])
  const next = useRef(1)
  const notify = useCallback((message: string, tone: Toast['tone'] = 'success') => {
    const id = next.current++
    setToasts((list) => [...list.slice(-2), { id, message, tone }])
    setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), 4000)
  }, [])
  return (
    <ToastContext.Provider value={notify}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast--${toast.tone}`}>
            {toast.message}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  )
}

export const useNotify = () => useContext(ToastContext)
