import { OriginalResponse } from '../../src/index.js'
import { describeGlobalOverride } from '../helpers/global-override.js'

describeGlobalOverride({
  title: 'overrideGlobalObjects: false',
  options: { overrideGlobalObjects: false },
  globalTitle: 'leaves globalThis.Response untouched',
  globalAfter: OriginalResponse,
  fastPath: false,
})
