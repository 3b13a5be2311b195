// The plugin wizard: a model writes a plugin from a site's pages, tried before it is saved.
import type { Area } from './area.ts'
import { pluginWizardPolicy, pluginWizardRoutes } from '../http/routes/plugin-wizard.ts'
import { createGenerationStore, type GenerationStore } from '../domain/wizard/generations.ts'

export type WizardState = {
  /** Started generations, each waiting for its single-use stream. */
  generations: GenerationStore
}

export const wizardArea: Area<'wizard', WizardState> = {
  name: 'wizard',
  state: () => ({ generations: createGenerationStore() }),
  routes: [{ routes: pluginWizardRoutes, policy: pluginWizardPolicy }],
}
