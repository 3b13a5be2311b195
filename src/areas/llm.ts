// The language-model provider's own route, whether a key is configured; the features that ask the
// provider are routed with the areas they serve (collections, split, database).
import type { Area } from './area.ts'
import { llmPolicy, llmRoutes } from '../http/routes/llm.ts'

export const llmArea: Area<'llm'> = {
  name: 'llm',
  routes: [{ routes: llmRoutes, policy: llmPolicy }],
}
