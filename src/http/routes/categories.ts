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
  CategoryListResponse,
  CategoryModel,
  categoryFields,
  toCategoryInput,
  toWireCategory,
} from '../models/categories.ts'
import type { PolicyRows } from '../policy.ts'

/** Access policy of this file's routes, keyed by `METHOD /path` as registered (http/policy.ts). */
export const categoriesPolicy = {
  'GET /api/archives/:id/categories': {
    op: 'find_arc_categories',
    access: 'any',
    guestScope: true,
  },
  'GET /api/categories': { op: 'get_category_list', access: 'any', guestScope: true },
  'GET /api/categories/bookmark_link': { op: 'get_bookmark_link', access: 'any', guestScope: true },
  'PUT /api/categories/bookmark_link/:id': { op: 'update_bookmark_link', access: 'admin' },
  'DELETE /api/categories/bookmark_link': { op: 'remove_bookmark_link', access: 'admin' },
  'PUT /api/categories': { op: 'create_category', access: 'admin' },
  'GET /api/categories/:id': { op: 'get_category', access: 'any', guestScope: true },
  'PUT /api/categories/:id': { op: 'update_category', access: 'admin' },
  'DELETE /api/categories/:id': { op: 'delete_category', access: 'admin' },
  'PUT /api/categories/:id/:archive': { op: 'add_to_category', access: 'admin' },
  'DELETE /api/categories/:id/:archive': { op: 'remove_from_category', access: 'admin' },
} satisfies PolicyRows

export const categoriesRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.categories' })
    .use(requestContext(deps))
    .get(
      '/api/categories',
      ({ guestScoped }) => listCategories(deps, scopeFor(deps, guestScoped)).map(toWireCategory),
      { response: CategoryListResponse },
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
