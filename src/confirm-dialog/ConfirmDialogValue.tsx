import { useEffect, useState, type CSSProperties } from 'react'
import { REDACTED } from '@toolmark/core'
import { filePreview, isFileDescription, type FileDescription } from '@toolmark/core/forms'
import type { ConfirmDialogLabels } from './confirmDialogLabels'
import { AgentText } from './AgentText'
import { isEmptyShown } from './confirmDialogRows'

/** Text past this many characters is cut, with a button to show the rest. */
export const TEXT_LIMIT = 280

/** Hidden on screen, read by screen readers. Inline, so it holds with `unstyled` too. */
export const visuallyHidden: CSSProperties = {
  position: 'absolute',
  inlineSize: '1px',
  blockSize: '1px',
  margin: '-1px',
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
}

/**
 * One value as a person reads it: a redacted value masked (and read out as "hidden"), an absent
 * or empty one as a dash ("no value"), a list of plain values comma-separated, long text cut
 * with a button to show the rest.
 */
export function ConfirmDialogValue({
  value,
  present = true,
  labels,
}: {
  value: unknown
  /** False when there is no value at all (a change's missing side). */
  present?: boolean
  labels: ConfirmDialogLabels
}) {
  if (value === REDACTED) {
    return (
      <span data-part="masked">
        <span aria-hidden="true">••••••</span>
        <span style={visuallyHidden}>{labels.hidden}</span>
      </span>
    )
  }
  if (!present || isEmptyShown(value)) {
    return (
      <span data-part="empty">
        <span aria-hidden="true">—</span>
        <span style={visuallyHidden}>{labels.noValue}</span>
      </span>
    )
  }
  if (isFileDescription(value)) return <FileValue description={value} />
  if (Array.isArray(value) && value.every(isFileDescription)) {
    return (
      <>
        {value.map((item, i) => (
          <FileValue key={i} description={item} />
        ))}
      </>
    )
  }
  if (Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object')) {
    return (
      <>
        {value.map((item, i) => (
          <span key={i}>
            {i > 0 ? ', ' : null}
            <ConfirmDialogValue value={item} labels={labels} />
          </span>
        ))}
      </>
    )
  }
  return <LongText text={formatValue(value)} labels={labels} />
}

const sizeOf = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${Number((bytes / 1024).toFixed(1))} KB`
      : `${Number((bytes / 1024 / 1024).toFixed(1))} MB`

/**
 * A file as a person checks it: name, size and type, and a preview of an image they gave. Names
 * core describes come without hidden characters; name and type are still agent text, because any
 * tool's input can take the shape of a file's description.
 */
function FileValue({ description }: { description: FileDescription }) {
  const { name, size, type } = description.file
  const [preview, setPreview] = useState<string>()
  useEffect(() => {
    const blob = filePreview(description)
    if (!blob || typeof URL.createObjectURL !== 'function') return
    const url = URL.createObjectURL(blob)
    setPreview(url)
    return () => {
      URL.revokeObjectURL(url)
      setPreview(undefined)
    }
  }, [description])
  return (
    <span data-part="file" style={{ display: 'block' }}>
      {preview ? (
        <img
          src={preview}
          alt={name}
          data-part="file-preview"
          style={{ display: 'block', maxInlineSize: '8rem', maxBlockSize: '6rem' }}
        />
      ) : null}
      <AgentText text={name} /> ({sizeOf(size)}
      {type ? (
        <>
          , <AgentText text={type} />
        </>
      ) : null}
      )
    </span>
  )
}

function LongText({ text, labels }: { text: string; labels: ConfirmDialogLabels }) {
  const [whole, setWhole] = useState(false)
  if (whole || text.length <= TEXT_LIMIT) return <AgentText text={text} />
  return (
    <>
      <AgentText text={text.slice(0, TEXT_LIMIT)} />…{' '}
      <button type="button" data-part="more" onClick={() => setWhole(true)}>
        {labels.moreText(text.length - TEXT_LIMIT)}
      </button>
    </>
  )
}

/** Plain values as text; anything else as JSON. */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value)
  }
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}
