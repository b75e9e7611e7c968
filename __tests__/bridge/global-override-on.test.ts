import { LightResponse } from '../../src/index.js'
import { describeGlobalOverride } from '../helpers/global-override.js'

describeGlobalOverride({
  title: 'overrideGlobalObjects: true (default)',
  globalTitle: 'installs the lightweight Response, Request and fetch when fetchBridge() is called, before any request',
  globalAfter: LightResponse,
  fastPath: true,
})
