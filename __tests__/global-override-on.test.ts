import { LightResponse } from '../src/index.js'
import { describeGlobalOverride } from './helpers/global-override.js'

describeGlobalOverride({
  title: 'overrideGlobalObjects: true (default)',
  globalTitle: 'installs the lightweight Response on the first request, not before',
  globalAfter: LightResponse,
  fastPath: true,
})
