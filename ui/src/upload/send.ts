// One archive upload: XMLHttpRequest rather than fetch, because only XHR reports upload progress.
// Answers the server's wire object, or throws ApiError with the Env `error` message.
import { ApiError } from '../api.ts'

export type UploadFields = { title?: string; tags?: string; category_id?: string }
export type Uploaded = { id: string; name?: string; title?: string }

function sendOnce(
  file: File,
  fields: UploadFields,
  onProgress: (sent: number, total: number) => void,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const body = new FormData()
    for (const [key, value] of Object.entries(fields)) if (value) body.set(key, value)
    // The file goes last: the server stages it as it streams, the fields must be known first.
    body.set('file', file, file.name)
    const xhr = new XMLHttpRequest()
    xhr.open('PUT', '/api/archives/upload')
    xhr.withCredentials = true
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size)
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText })
    xhr.onerror = () => reject(new ApiError(0, 'The connection to the server failed.'))
    xhr.onabort = () => reject(new ApiError(0, 'The upload was cancelled.'))
    xhr.send(body)
  })
}

function messageOf(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown }
    if (typeof body.error === 'string' && body.error) return body.error
  } catch {
    // not JSON
  }
  return text.slice(0, 200) || `HTTP ${status}`
}

/** Uploads one file; an expired session is refreshed once and the upload sent again. */
export async function uploadArchive(
  file: File,
  fields: UploadFields,
  onProgress: (sent: number, total: number) => void,
): Promise<Uploaded> {
  let answer = await sendOnce(file, fields, onProgress)
  if (answer.status === 401) {
    const refreshed = await fetch('/api/token/refresh', { method: 'POST' }).catch(() => null)
    if (refreshed?.ok) answer = await sendOnce(file, fields, onProgress)
  }
  if (answer.status < 200 || answer.status >= 300)
    throw new ApiError(answer.status, messageOf(answer.status, answer.text))
  return JSON.parse(answer.text) as Uploaded
}
