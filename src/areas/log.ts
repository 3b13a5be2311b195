// The logger of start-up work the areas do (boot's own lines are under 'boot').
import { createLogger } from '../log.ts'

export const log = createLogger('boot')
