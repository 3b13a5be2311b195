// Categories: list, get, create, update, delete, members, the categories of an archive, and
// LANraragi's bookmark link.
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import { ok } from '../envelope.ts'
import {
  addToCategory,
  categoriesOfArchive,
  createCategory,
  deleteCategory,
  getCategory,
  listCategories,
  removeFromCategory,
  updateCategory,
} from '../../domain/collections/categories.ts'
import {
  getBookmarkLink,
  removeBookmarkLink,
  setBookmarkLink,
} from '../../domain/collections/bookmark-link.ts'
import { scopeFor } from '../../domain/search/guest-scope.ts'
import {
  CategoryModel,
  categoryFields,
  toCategoryInput,
  toWireCategory,
} from '../models/categories.ts'

export const categoriesRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.categories' })
    .use(requestContext(deps))
    .get('/api/categories', ({ guestScoped }) =>
      listCategories(deps, scopeFor(deps, guestScoped)).map(toWireCategory),
    )
    // LANraragi's bookmark link (before /:id, which would take 'bookmark_link' for an id).
    .get('/api/categories/bookmark_link', () => ok({ category_id: getBookmarkLink(deps) }))
    .put(
      '/api/categories/bookmark_link/:id',
      ({ params }) => ok({ category_id: setBookmarkLink(deps, params.id) }),
      { params: CategoryModel.params },
    )
    .delete('/api/categories/bookmark_link', () => ok({ category_id: removeBookmarkLink(deps) }))
    .put(
      '/api/categories',
      ({ body, query }) =>
        ok({ category_id: createCategory(deps, toCategoryInput(categoryFields(body, query))) }),
      { body: CategoryModel.body },
    )
    .get(
      '/api/categories/:id',
      ({ params, guestScoped }) =>
        toWireCategory(getCategory(deps, params.id, scopeFor(deps, guestScoped))),
      { params: CategoryModel.params },
    )
    .put(
      '/api/categories/:id',
      ({ params, body, query }) => {
        const input = toCategoryInput(categoryFields(body, query))
        return ok({ category_id: updateCategory(deps, params.id, input) })
      },
      { params: CategoryModel.params, body: CategoryModel.body },
    )
    .delete(
      '/api/categories/:id',
      ({ params }) => {
        deleteCategory(deps, params.id)
        return ok()
      },
      { params: CategoryModel.params },
    )
    .put(
      '/api/categories/:id/:archive',
      ({ params }) => ok({ successMessage: addToCategory(deps, params.id, params.archive) }),
      { params: CategoryModel.memberParams },
    )
    .delete(
      '/api/categories/:id/:archive',
      ({ params }) => ok({ successMessage: removeFromCategory(deps, params.id, params.archive) }),
      { params: CategoryModel.memberParams },
    )
    .get(
      '/api/archives/:id/categories',
      ({ params, guestScoped }) => {
        const categories = categoriesOfArchive(deps, params.id, scopeFor(deps, guestScoped))
        return ok({ categories: categories.map(toWireCategory) })
      },
      { params: CategoryModel.params },
    )
