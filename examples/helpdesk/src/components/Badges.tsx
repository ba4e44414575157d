import type { Priority, Status } from '../../shared/ticket.ts'
import { PRIORITY_LABELS, STATUS_LABELS, initials } from '../format.ts'

export function PriorityBadge({ priority }: { priority: Priority }) {
  return (
    <span className={`badge priority priority--${priority}`}>
      <span className="priority__bars" aria-hidden="true">
        <i />
        <i />
        <i />
      </span>
      {PRIORITY_LABELS[priority]}
    </span>
  )
}

export function StatusBadge({ status }: { status: Status }) {
  return <span className={`badge status status--${status}`}>{STATUS_LABELS[status]}</span>
}

const HUES = [250, 200, 160, 25, 330, 280, 10, 45]

export function Avatar({ name, size = 28 }: { name: string; size?: number }) {
  let hash = 0
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0
  const hue = HUES[hash % HUES.length]
  return (
    <span
      className="avatar"
      aria-hidden="true"
      style={{
        width: size,
        height: size,
        fontSize: size * 0.4,
        background: `hsl(${hue} 70% 92%)`,
        color: `hsl(${hue} 45% 32%)`,
      }}
    >
      {initials(name)}
    </span>
  )
}
