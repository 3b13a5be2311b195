// Wire shape of GET /api/health, converted once from the domain's Health.
import type { Health } from '../../domain/health.ts'

export const toWireHealth = (h: Health) => ({
  status: h.status,
  db: h.db,
  search_ready: h.searchReady,
  sandbox: h.sandbox,
})
