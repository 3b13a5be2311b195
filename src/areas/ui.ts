// The bundled web UI (docs/ui.md); last, so every API route is registered before its catch-all.
import type { Area } from './area.ts'
import { uiPolicy, uiRoutes } from '../http/routes/ui.ts'

export const uiArea: Area<'ui'> = {
  name: 'ui',
  routes: [{ routes: uiRoutes, policy: uiPolicy }],
}
