/** A stand-in for the data layer both the Express and the Hono routes use. */
export interface User {
  id: number
  name: string
  email: string
}

export function createDb() {
  const users: User[] = [
    { id: 1, name: 'Ada', email: 'ada@example.com' },
    { id: 2, name: 'Linus', email: 'linus@example.com' },
  ]
  const subscribers: string[] = []
  return {
    users: {
      list: () => users.slice(),
      get: (id: number) => users.find((u) => u.id === id),
      add(name: string, email: string): User {
        const user = { id: users.length + 1, name, email }
        users.push(user)
        return user
      },
    },
    subscribers,
  }
}

export type Db = ReturnType<typeof createDb>

/** An error carrying an HTTP status, as many Express apps define one. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}
