import type { Category, Priority, Status } from '../shared/ticket.ts'

/** The person signed in to the helpdesk; new tickets default to them as requester. */
export const CURRENT_USER = { name: 'Sam Rivera', email: 'sam.rivera@northwind.example' }

export const PRIORITY_LABELS: Record<Priority, string> = {
  low: 'Low',
  normal: 'Normal',
  high: 'High',
  urgent: 'Urgent',
}

export const CATEGORY_LABELS: Record<Category, string> = {
  hardware: 'Hardware',
  software: 'Software',
  access: 'Access & accounts',
  network: 'Network',
  other: 'Other',
}

export const STATUS_LABELS: Record<Status, string> = {
  open: 'Open',
  pending: 'Pending',
  closed: 'Closed',
}

/** "maria.chen@northwind.example" → "Maria Chen". */
export function nameFromEmail(email: string): string {
  const local = email.split('@')[0] ?? email
  return local
    .split(/[._-]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join(' ')
}

/** "Maria Chen" → "MC". */
export function initials(name: string): string {
  const parts = name.split(' ').filter(Boolean)
  return (
    (parts[0]?.[0] ?? '') + (parts.length > 1 ? parts[parts.length - 1][0] : '')
  ).toUpperCase()
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'short' })
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Infinity],
]

/** "2 hr. ago", "yesterday", "3 days ago". */
export function timeAgo(iso: string, now = Date.now()): string {
  let value = (new Date(iso).getTime() - now) / 1000
  if (Math.abs(value) < 45) return 'just now'
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return relative.format(Math.round(value), unit)
    value /= size
  }
  return relative.format(Math.round(value), 'year')
}

const full = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' })

/** "Dec 2, 2026, 10:30 AM". */
export function formatDate(iso: string): string {
  return full.format(new Date(iso))
}
