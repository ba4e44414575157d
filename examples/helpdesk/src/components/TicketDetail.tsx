import { useEffect, useRef, useState } from 'react'
import type { Ticket } from '../../shared/ticket.ts'
import { formatSize } from '../../shared/attachment.ts'
import { api } from '../api.ts'
import { CATEGORY_LABELS, formatDate, nameFromEmail, timeAgo } from '../format.ts'
import { applyPendingFocus } from '../focus.ts'
import { href } from '../route.ts'
import { Avatar, PriorityBadge, StatusBadge } from './Badges.tsx'
import { CheckIcon, EditIcon, TrashIcon } from './Icons.tsx'

export interface TicketDetailProps {
  ticket: Ticket
  onClose(): void
  onDelete(): void
  closing: boolean
  deleting: boolean
}

export function TicketDetail({ ticket, onClose, onDelete, closing, deleting }: TicketDetailProps) {
  const [confirmingDelete, setConfirmingDelete] = useState(false)
  const trash = useRef<HTMLButtonElement>(null)
  const requester = nameFromEmail(ticket.requester)
  useEffect(applyPendingFocus)

  const keep = () => {
    setConfirmingDelete(false)
    // Back to the button that asked, once it is on screen again.
    requestAnimationFrame(() => trash.current?.focus())
  }

  return (
    <article className="detail" aria-labelledby="ticket-title">
      <div className="detail__toolbar">
        <span className="detail__id">Ticket #{ticket.id}</span>
        <StatusBadge status={ticket.status} />
        <div className="detail__actions">
          <a className="button" href={href({ name: 'edit', id: ticket.id })}>
            <EditIcon /> Edit
          </a>
          {ticket.status !== 'closed' && (
            // aria-disabled rather than disabled: a disabled button drops the focus it holds.
            <button
              type="button"
              className="button"
              onClick={() => {
                if (!closing) onClose()
              }}
              aria-disabled={closing || undefined}
            >
              <CheckIcon /> {closing ? 'Closing…' : 'Close ticket'}
            </button>
          )}
          {confirmingDelete ? (
            <span
              className="confirm-inline"
              role="group"
              aria-label="Confirm delete"
              onKeyDown={(event) => {
                if (event.key === 'Escape' && !deleting) {
                  event.stopPropagation()
                  keep()
                }
              }}
            >
              <button
                type="button"
                className="button button--danger"
                onClick={() => {
                  if (!deleting) onDelete()
                }}
                aria-disabled={deleting || undefined}
                autoFocus
              >
                {deleting ? 'Deleting…' : 'Delete for good'}
              </button>
              <button type="button" className="button" onClick={keep}>
                Keep
              </button>
            </span>
          ) : (
            <button
              ref={trash}
              type="button"
              className="button button--ghost-danger"
              onClick={() => setConfirmingDelete(true)}
              aria-label="Delete ticket"
            >
              <TrashIcon />
            </button>
          )}
        </div>
      </div>

      <h1
        id="ticket-title"
        className="detail__title"
        data-focus-target="pane"
        data-focus-key={`ticket:${ticket.id}`}
        tabIndex={-1}
      >
        {ticket.title}
      </h1>

      <dl className="detail__meta">
        <div>
          <dt>Requester</dt>
          <dd className="person">
            <Avatar name={requester} size={24} />
            <span>
              {requester}
              <small>{ticket.requester}</small>
            </span>
          </dd>
        </div>
        <div>
          <dt>Assignee</dt>
          <dd className="person">
            {ticket.assignee ? (
              <>
                <Avatar name={ticket.assignee} size={24} />
                <span>{ticket.assignee}</span>
              </>
            ) : (
              <span className="muted">Unassigned</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Priority</dt>
          <dd>
            <PriorityBadge priority={ticket.priority} />
          </dd>
        </div>
        <div>
          <dt>Category</dt>
          <dd>{CATEGORY_LABELS[ticket.category]}</dd>
        </div>
      </dl>

      <section className="detail__body" aria-label="Description">
        {ticket.description ? (
          <p>{ticket.description}</p>
        ) : (
          <p className="muted">No description.</p>
        )}
      </section>

      {ticket.attachments.length > 0 && (
        <section className="attachments" aria-labelledby="ticket-attachments">
          <h2 id="ticket-attachments">Attachments</h2>
          <ul>
            {ticket.attachments.map((attachment) => {
              const url = api.attachmentUrl(ticket.id, attachment.id)
              return (
                <li key={attachment.id}>
                  {attachment.type.startsWith('image/') && <img src={url} alt="" loading="lazy" />}
                  <span>
                    <a href={url} target="_blank" rel="noreferrer">
                      {attachment.name}
                    </a>
                    <small>
                      {formatSize(attachment.size)} · {attachment.type}
                    </small>
                  </span>
                </li>
              )
            })}
          </ul>
        </section>
      )}

      <section className="timeline" aria-label="Activity">
        <h2>Activity</h2>
        <ol>
          <li>
            <span className="timeline__dot" />
            <span>
              <strong>{requester}</strong> reported this ticket
            </span>
            <time dateTime={ticket.createdAt} title={formatDate(ticket.createdAt)}>
              {timeAgo(ticket.createdAt)}
            </time>
          </li>
          {ticket.updatedAt !== ticket.createdAt && ticket.updatedAt !== ticket.closedAt && (
            <li>
              <span className="timeline__dot" />
              <span>Ticket details updated</span>
              <time dateTime={ticket.updatedAt} title={formatDate(ticket.updatedAt)}>
                {timeAgo(ticket.updatedAt)}
              </time>
            </li>
          )}
          {ticket.closedAt && (
            <li>
              <span className="timeline__dot timeline__dot--done" />
              <span>Ticket closed</span>
              <time dateTime={ticket.closedAt} title={formatDate(ticket.closedAt)}>
                {timeAgo(ticket.closedAt)}
              </time>
            </li>
          )}
        </ol>
      </section>
    </article>
  )
}
