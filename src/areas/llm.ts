// The language-model routes: key status and the features that ask the configured provider.
import type { Area } from './area.ts'
import { llmPolicy, llmRoutes } from '../http/routes/llm.ts'

export const llmArea: Area<'llm'> = {
  name: 'llm',
  routes: [{ routes: llmRoutes, policy: llmPolicy }],
}
