/**
 * A server of `npm run bench:tracing` (bench/tracing-cost.ts): GET /json answered by an Express 5
 * route (TRACING_MODE=express) or by a Hono route behind the bridge from dist/cjs (TRACING_MODE=bridge),
 * with the standard OpenTelemetry set-up when TRACING_OTEL=1 (node SDK tracer provider, batch span
 * processor to an exporter that drops the spans, instrumentation-http and -express, a meter provider
 * for http.server.request.duration), loaded before express and node:http as `node --require` would.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the order of loading is the point */
import path from 'node:path'

if (process.env.TRACING_OTEL === '1') {
  const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node')
  const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base')
  const { MeterProvider } = require('@opentelemetry/sdk-metrics') as typeof import('@opentelemetry/sdk-metrics')
  const { registerInstrumentations } = require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation')
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http')
  const { ExpressInstrumentation } = require('@opentelemetry/instrumentation-express') as typeof import('@opentelemetry/instrumentation-express')
  const dropped = { export: (_spans: unknown, done: (result: { code: number }) => void) => done({ code: 0 }), shutdown: async () => {} }
  const tracerProvider = new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropped)] })
  tracerProvider.register()
  const meterProvider = new MeterProvider()
  registerInstrumentations({ tracerProvider, meterProvider, instrumentations: [new HttpInstrumentation(), new ExpressInstrumentation()] })
}

const express = require('express') as typeof import('express')
const { Hono } = require('hono') as typeof import('hono')
const { fetchBridge } = require(path.resolve(__dirname, '..', 'dist', 'cjs', 'index.js')) as typeof import('../src/index.js')
const { ready } = require('./servers/listen.js') as typeof import('./servers/listen.js')
/* eslint-enable @typescript-eslint/no-require-imports */

const payload = { message: 'Hello, World!', items: [1, 2, 3], nested: { ok: true } }
const app = express()
if (process.env.TRACING_MODE === 'bridge') {
  const hono = new Hono()
  hono.get('/json', (c) => c.json(payload))
  app.use(fetchBridge(hono))
} else {
  app.get('/json', (_req, res) => void res.json(payload))
}
ready(app.listen(0, '127.0.0.1'))
