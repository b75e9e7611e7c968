import { redisAvailability } from './redis.js'

// The scale-out tests need a real redis-server. Locally they skip with a reason when it is missing;
// in CI (.ci/run exports REQUIRE_REDIS=1 and installs it) a missing one fails them instead.
describe('redis-server availability', () => {
  it('runs the tests when redis-server is found', () => {
    expect(redisAvailability({}, true)).toEqual({ run: true })
    expect(redisAvailability({ REQUIRE_REDIS: '1' }, true)).toEqual({ run: true })
  })

  it('skips with a one-line reason without redis-server, unless REQUIRE_REDIS=1 makes it a failure', () => {
    const local = redisAvailability({}, false)
    expect(local).toEqual({ run: false, fail: false, reason: expect.stringMatching(/^redis-server not found[^\n]*$/) })
    expect(redisAvailability({ REQUIRE_REDIS: '1' }, false)).toMatchObject({ run: false, fail: true })
  })

})
