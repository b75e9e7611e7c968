import express5 from 'express'

// Express 4 is installed under an alias; its types are close enough to Express 5's for the tests.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const express4 = require('express4') as typeof express5

/** Run a describe block once per Express major version. */
export const expressVersions: Array<[name: string, express: typeof express5]> = [
  ['Express 5', express5],
  ['Express 4', express4],
]
