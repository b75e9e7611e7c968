/**
 * One shadow run: set up while Express answers (a copy of the request, a tap on the response), run
 * once Express's response is over, compared, counted and reported. Nothing here touches what the
 * client gets: the tap only copies, and the twin starts after the response has closed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ShadowSkipReason } from '../bridge/shadow-hook.js'
import type { ExecutionContextLike } from '../bridge/options.js'
import type { TargetRouting } from '../core/routed-target.js'
import { requestOrigin, requestUrl, type ExpressLikeRequest } from '../request/url.js'
import { copyRequestBody, decoded, headerMap, sentHeaders, tapResponse } from './capture.js'
import { compareCaptured, isNoise, type CompareRules } from './compare.js'
import type { ResolvedRule, ResolvedTrial } from './shadow-options.js'
import { makeDiff, summarize, type ShadowDiff, type ShadowResult } from './shadow-result.js'
import type { RouteStats } from './stats.js'
import { runTwin, type TwinRequest } from './twin.js'

/** What a run needs from the bridge it shadows. */
export interface ShadowContext {
  trial: ResolvedTrial
  fetch: (request: Request, env: unknown, ctx: ExecutionContextLike) => unknown
  origin: string | undefined
  keepMountPath: boolean
  /** Under `expressRouting`: the twin gets the target respelled as the bridge would give it to the app. */
  routing: ((req: { app?: unknown }) => TargetRouting) | undefined
  env: ((req: any, res: any) => Record<string, unknown>) | undefined
  /** Runs in flight, shared by every bridge of the trial. */
  slots: { inFlight: number }
}

function report(trial: ResolvedTrial, result: Omit<ShadowResult, 'summary'>): void {
  if (trial.onResult === undefined) return
  try {
    trial.onResult({ ...result, summary: summarize(result) })
  } catch (err) {
    process.emitWarning(
      `express-fetch-bridge: shadowTrial onResult threw: ${err instanceof Error ? err.stack : String(err)}`,
    )
  }
}

function skipped(
  ctx: ShadowContext,
  stats: RouteStats,
  req: IncomingMessage,
  reason: ShadowSkipReason,
  express = { status: 0, duration: 0 },
): void {
  stats.skip(reason)
  if (reason === 'sampled-out') return
  report(ctx.trial, {
    method: stats.method,
    route: stats.route,
    url: req.url ?? '/',
    outcome: 'skipped',
    reason,
    diffs: [],
    express,
  })
}

function rawPairs(raw: string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = []
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i], raw[i + 1]])
  return pairs
}

/** Called before the request goes on to Express: decides whether to shadow it, and sets the run up. */
export function startShadow(
  ctx: ShadowContext,
  rule: ResolvedRule,
  stats: RouteStats,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const { trial } = ctx
  const method = stats.method
  if (!rule.methods.has(method)) return skipped(ctx, stats, req, 'unsafe-method')
  if (trial.sampleRate < 1 && Math.random() >= trial.sampleRate) return skipped(ctx, stats, req, 'sampled-out')
  if (ctx.slots.inFlight >= trial.maxConcurrent) return skipped(ctx, stats, req, 'busy')
  let url: string
  try {
    url = requestUrl(
      req as ExpressLikeRequest,
      ctx.origin ?? requestOrigin(req as ExpressLikeRequest),
      ctx.keepMountPath,
      ctx.routing?.(req as ExpressLikeRequest),
    )
  } catch {
    return skipped(ctx, stats, req, 'bad-request')
  }
  const body = copyRequestBody(req, trial.maxRequestBodyBytes)
  if (typeof body === 'string') return skipped(ctx, stats, req, body)
  ctx.slots.inFlight++
  const start = performance.now()
  const input: TwinRequest = {
    url,
    method,
    headers: rawPairs(req.rawHeaders),
    body: undefined,
    req,
    preset: headerMap(res.getHeaders()),
  }
  const tap = tapResponse(res, trial.maxResponseBytes)
  res.once('close', () => {
    tap.stop()
    const express = { status: res.statusCode, duration: performance.now() - start }
    const requestBody = body.result()
    const release = () => ctx.slots.inFlight--
    if (!res.writableFinished) {
      release()
      return skipped(ctx, stats, req, 'client-closed', express)
    }
    if (typeof requestBody === 'string' || res.statusCode === 304) {
      release()
      return skipped(ctx, stats, req, typeof requestBody === 'string' ? requestBody : 'not-modified', express)
    }
    input.body = requestBody
    const headers = sentHeaders(res)
    const written = tap.body.over ? undefined : tap.body.bytes()
    // Off the response path: after this turn of the event loop, whatever the twin does.
    setImmediate(() => {
      compare(ctx, rule, stats, input, express, headers, written).then(release, (err: unknown) => {
        release()
        process.emitWarning(
          `express-fetch-bridge: a shadow comparison failed: ${err instanceof Error ? err.stack : String(err)}`,
        )
      })
    })
  })
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

function shadowEnv(ctx: ShadowContext, input: TwinRequest): Record<string, unknown> {
  let extra: Record<string, unknown> | undefined
  if (ctx.env !== undefined) {
    try {
      extra = ctx.env(input.req, undefined)
    } catch {
      extra = undefined
    }
  }
  // `c.env.shadow === true`: the handler can skip writes and outbound calls. No `outgoing`: nothing may be sent.
  return { ...extra, incoming: input.req, outgoing: undefined, shadow: true }
}

async function compare(
  ctx: ShadowContext,
  rule: ResolvedRule,
  stats: RouteStats,
  input: TwinRequest,
  express: { status: number; duration: number },
  headers: Map<string, string>,
  written: Buffer | undefined,
): Promise<void> {
  const { trial } = ctx
  const limit = trial.maxResponseBytes
  const body = written === undefined ? undefined : await decoded(written, headers.get('content-encoding'), limit)
  if (body === undefined) return skipped(ctx, stats, input.req, 'response-too-large', express)
  const rules: CompareRules = {
    method: input.method,
    ignoreHeaders: trial.ignoreHeaders,
    ignored: rule.ignored,
    normalize: rule.normalize,
  }
  const first = await runTwin(ctx.fetch, input, shadowEnv(ctx, input), trial.timeoutMs, limit)
  if (first.kind === 'too-large') return skipped(ctx, stats, input.req, 'response-too-large', express)
  let diffs: ShadowDiff[]
  if (first.kind === 'error') {
    diffs = [makeDiff('error', 'error', undefined, first.error)]
  } else {
    const noise = trial.noise
    if (noise !== undefined && (stats.samples < noise.first || Math.random() < noise.sampleRate)) {
      // Diffy's idea: what differs between two runs of the same code on the same request is noise.
      if (noise.gapMs > 0) await delay(noise.gapMs)
      const second = await runTwin(ctx.fetch, input, shadowEnv(ctx, input), trial.timeoutMs, limit)
      if (second.kind === 'answer')
        for (const d of compareCaptured(first.captured, second.captured, rules)) stats.addNoise(d.field)
    }
    diffs = compareCaptured({ status: express.status, headers, body }, first.captured, rules)
  }
  for (const d of diffs) d.noise = isNoise(d.field, stats.noise)
  const mismatch = diffs.some((d) => !d.noise)
  stats.record(mismatch, diffs, express.duration, first.duration)
  if (trial.onResult === undefined) return
  const url = new URL(input.url)
  report(trial, {
    method: input.method,
    route: stats.route,
    url: url.pathname + url.search,
    outcome: mismatch ? 'mismatch' : 'match',
    diffs,
    express,
    hono: { status: first.kind === 'answer' ? first.captured.status : 0, duration: first.duration },
  })
}
