/** @type {import('jest').Config} */
module.exports = {
  // Records unhandledRejection / uncaughtException on the real process; see the file.
  testEnvironment: '<rootDir>/__tests__/support/environment.js',
  setupFilesAfterEnv: ['<rootDir>/__tests__/support/no-stray-errors.ts'],
  // examples/testing holds the testing example's own test file, run as part of the suite.
  roots: ['<rootDir>/__tests__', '<rootDir>/examples/testing'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
  },
  // Sources import with explicit .js extensions (required by NodeNext ESM output).
  // Examples import the package by its name, as users do: mapped to src/ (tsconfig.json "paths" too).
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
    '^express-fetch-bridge$': '<rootDir>/src/index.ts',
    '^express-fetch-bridge/websocket$': '<rootDir>/src/websocket.ts',
  },
  testTimeout: 20000,
  reporters: ['default', '<rootDir>/scripts/summary-reporter.js'],
}
