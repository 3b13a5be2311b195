// Collections: categories, Tankoubons, bookmarks.
import type { Area } from './area.ts'
import { categoriesPolicy, categoriesRoutes } from '../http/routes/categories.ts'
import { tankoubonsPolicy, tankoubonsRoutes } from '../http/routes/tankoubons.ts'
import { bookmarksPolicy, bookmarksRoutes } from '../http/routes/bookmarks.ts'
import { createFirstInstallCategory } from '../domain/collections/first-install.ts'

export const collectionsArea: Area<'collections'> = {
  name: 'collections',
  recover: (deps) => {
    if (deps.config.favoritesCategory) createFirstInstallCategory(deps)
  },
  routes: [
    { routes: categoriesRoutes, policy: categoriesPolicy },
    { routes: tankoubonsRoutes, policy: tankoubonsPolicy },
    { routes: bookmarksRoutes, policy: bookmarksPolicy },
  ],
}
