/**
 * The option names of `shadowTrial()`, its `noise` object and its route rules, for the bridge's one
 * rule for misspelt names (bridge/start-up-checks.ts): a `sampleRat` or a rule's `canery` is a
 * TypeError naming the nearest name, not an option silently left at its default.
 */
import { refuseUnknownKeys, type OptionNames } from '../bridge/start-up-checks.js'
import type { ShadowRouteRule, ShadowTrialOptions } from './shadow-options.js'

const TRIAL: OptionNames<ShadowTrialOptions> = {
  routes: true,
  sampleRate: true,
  maxConcurrent: true,
  timeoutMs: true,
  maxRequestBodyBytes: true,
  maxResponseBytes: true,
  ignoreHeaders: true,
  noise: true,
  readyAfter: true,
  onResult: true,
}
const NOISE: OptionNames<Exclude<NonNullable<ShadowTrialOptions['noise']>, false>> = {
  sampleRate: true,
  first: true,
  gapMs: true,
}
const RULE: OptionNames<ShadowRouteRule> = {
  route: true,
  methods: true,
  shadow: true,
  canary: true,
  canaryKey: true,
  ignore: true,
  normalize: true,
}

/** Unknown names in the options of `shadowTrial()` (an object), its `noise` and its rules. */
export function refuseUnknownTrialOptions(options: ShadowTrialOptions): void {
  refuseUnknownKeys('shadowTrial', options, TRIAL)
  const { noise, routes } = options
  if (noise !== null && typeof noise === 'object') refuseUnknownKeys('shadowTrial', noise, NOISE, 'noise.')
  if (!Array.isArray(routes)) return
  routes.forEach((rule: unknown, i) => {
    if (rule !== null && typeof rule === 'object') refuseUnknownKeys('shadowTrial', rule, RULE, `routes[${i}].`)
  })
}
