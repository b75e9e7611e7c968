import express from 'express'
import { Hono } from 'hono'
import { fetchBridge } from 'express-fetch-bridge'

export interface Todo {
  id: number
  title: string
  done: boolean
}

/** Where todos live; tests pass their own so every test starts from a known state. */
export interface TodoStore {
  list(): Todo[]
  add(title: string): Todo
}

export function memoryStore(initial: string[] = []): TodoStore {
  const todos: Todo[] = []
  const store: TodoStore = {
    list: () => todos.slice(),
    add(title) {
      const todo = { id: todos.length + 1, title, done: false }
      todos.push(todo)
      return todo
    },
  }
  for (const title of initial) store.add(title)
  return store
}

/** The Hono routes under test. */
export function createHono(store: TodoStore) {
  const hono = new Hono()
  hono.get('/todos', (c) => c.json(store.list()))
  hono.post('/todos', async (c) => {
    const body = await c.req.json().catch(() => undefined)
    const title = typeof body?.title === 'string' ? body.title.trim() : ''
    if (title === '') return c.json({ error: 'title is required' }, 400)
    return c.json(store.add(title), 201)
  })
  return hono
}

/** The production app: Express middleware first, then the Hono routes, then the rest of Express. */
export function createApp(store: TodoStore = memoryStore()) {
  const app = express()
  app.disable('x-powered-by')
  app.use((_req, res, next) => {
    res.setHeader('x-api-version', '2')
    next()
  })
  app.use(fetchBridge(createHono(store)))
  app.get('/health', (_req, res) => {
    res.json({ ok: true })
  })
  return app
}
