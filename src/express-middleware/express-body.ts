/**
 * After Express middleware parsed the body (express.json(), urlencoded(), text(), raw(), multer), the
 * Request Hono holds would read a drained socket: give Hono a Request over the body rebuilt from
 * what the parser left on req — bytes for the body-parser types, a FormData for multer.
 */

import { PlatformRequest } from '../core/platform.js'
import { openAsBlob } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import { bodyConsumed, describeRebuilt, rebuildBody, type ParsedRequest } from '../request/rebuilt-body.js'
import { hasBody } from '../request/body-read.js'
import type { BodyInit } from '../core/fetch-types.js'

/** The platform's Request (hosts such as @hono/node-server replace the global with their own). */

/** What multer leaves on the request. */
interface UploadedFile {
  fieldname: string
  originalname: string
  mimetype: string
  buffer?: Buffer
  path?: string
}
interface MultipartRequest extends ParsedRequest {
  file?: UploadedFile
  files?: UploadedFile[] | Record<string, UploadedFile[]>
}

/** Whether the request body is still unread (decided before the middleware runs). */
export function bodyUnread(req: IncomingMessage): boolean {
  return hasBody(req) && !bodyConsumed(req)
}

/** The Request to give Hono once the middleware consumed a body that was unread before, else undefined. */
export async function requestAfterParse(req: IncomingMessage, current: Request): Promise<Request | undefined> {
  if (!bodyConsumed(req as ParsedRequest)) return undefined
  const headers = new Headers(current.headers)
  const init: RequestInit & { duplex?: 'half' } = { method: current.method, headers, signal: current.signal }
  if (isMultipart(req)) {
    const form = await formFromMultipart(req as MultipartRequest)
    if (form !== undefined) {
      // The FormData gets a fresh boundary: the old type and length would describe other bytes.
      headers.delete('content-type')
      headers.delete('content-length')
      headers.delete('content-encoding')
      init.body = form
      return new PlatformRequest(current.url, init)
    }
  }
  try {
    const body = rebuildBody(req as ParsedRequest)
    describeRebuilt(headers, body)
    init.body = body as unknown as BodyInit
  } catch (err) {
    // Reading the body rejects with the explanation; the rest of the Request stays usable.
    init.body = new ReadableStream({ start: (controller) => controller.error(err) })
    init.duplex = 'half'
  }
  return new PlatformRequest(current.url, init)
}

function isMultipart(req: IncomingMessage): boolean {
  return /^\s*multipart\/form-data/i.test(req.headers['content-type'] ?? '')
}

function appendFields(form: FormData, key: string, value: unknown): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i]
      appendFields(form, item !== null && typeof item === 'object' ? `${key}[${i}]` : key, item)
    }
  } else if (value !== null && typeof value === 'object') {
    for (const k of Object.keys(value)) appendFields(form, `${key}[${k}]`, (value as Record<string, unknown>)[k])
  } else {
    form.append(key, value === null || value === undefined ? '' : String(value))
  }
}

async function toFile(file: UploadedFile): Promise<File | undefined> {
  const options = { type: file.mimetype }
  if (file.buffer !== undefined) return new File([file.buffer as Uint8Array<ArrayBuffer>], file.originalname, options)
  // Disk storage: the file is read lazily, when the app reads it.
  if (file.path !== undefined) return new File([await openAsBlob(file.path, options)], file.originalname, options)
  return undefined
}

/** Fields and files as multer left them; undefined when a file's content is unavailable (custom storage). */
async function formFromMultipart(req: MultipartRequest): Promise<FormData | undefined> {
  const form = new FormData()
  const body = req.body
  if (body !== null && typeof body === 'object') {
    for (const key of Object.keys(body)) appendFields(form, key, (body as Record<string, unknown>)[key])
  }
  const files: UploadedFile[] = []
  if (req.file !== undefined) files.push(req.file)
  if (Array.isArray(req.files)) files.push(...req.files)
  else if (req.files !== undefined && req.files !== null)
    for (const list of Object.values(req.files)) files.push(...list)
  for (const file of files) {
    const content = await toFile(file)
    if (content === undefined) return undefined
    form.append(file.fieldname, content)
  }
  return form
}
