// OPDS catalog for e-readers (docs/clients.md).
import type { Area } from './area.ts'
import { opdsPolicy, opdsRoutes } from '../http/routes/opds.ts'

export const opdsArea: Area<'opds'> = {
  name: 'opds',
  routes: [{ routes: opdsRoutes, policy: opdsPolicy }],
}
