// Plugins: listings by type, settings (arguments, Run Automatically), options (domain rules), the
// priority order, and running a plugin now or as a job.
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import { ok } from '../envelope.ts'
import { listPluginsWithLogins } from '../../domain/plugins/listing.ts'
import {
  getPluginOptions,
  getPluginSettings,
  resetPluginOptions,
  setPluginPriority,
  setPluginSettings,
  updatePluginOptions,
} from '../../domain/plugins/settings.ts'
import { usePlugin } from '../../domain/plugins/use.ts'
import { queuePluginRun } from '../../domain/plugins/exec.ts'
import { exportPlugin, exportPlugins, type PluginZip } from '../../domain/plugins/export.ts'
import {
  installUploadedPlugin,
  pluginStemOf,
  readPluginSource,
} from '../../domain/plugins/upload.ts'
import { deletePlugin } from '../../domain/plugins/remove.ts'
import { attachmentDisposition } from '../archive-download.ts'
import { readMultipart } from '../multipart.ts'
import {
  PluginModel,
  runParams,
  toWireInstalled,
  toWirePlugin,
  toWirePluginSettings,
} from '../models/plugins.ts'
import type { PolicyRows } from '../policy.ts'

/** Access policy of this file's routes, keyed by `METHOD /path` as registered (http/policy.ts). */
export const pluginsPolicy = {
  'GET /api/plugins/:type': { op: 'list_plugins', access: 'any' },
  // The spec's dash, narrowed on purpose: saved arguments are the administrator's (site logins,
  // API keys); docs/auth.md, "Deliberate differences".
  'GET /api/plugins/settings': { op: 'get_plugin_settings', access: 'admin' },
  'PUT /api/plugins/settings': { op: 'update_plugin_settings', access: 'admin' },
  'GET /api/plugins/options': { op: 'get_plugin_options', access: 'admin' },
  'PUT /api/plugins/options': { op: 'update_plugin_options', access: 'admin' },
  'DELETE /api/plugins/options': { op: 'reset_plugin_options', access: 'admin' },
  'PUT /api/plugins/priority': { op: 'set_plugin_priority', access: 'admin' },
  'POST /api/plugins/use': { op: 'use_plugin', access: 'admin' },
  'POST /api/plugins/queue': { op: 'queue_plugin_exec', access: 'admin' },
  'POST /api/plugins/upload': { op: 'upload_plugin', access: 'admin', body: 'stream' },
  'DELETE /api/plugins': { op: 'delete_plugin', access: 'admin' },
  'GET /api/plugins/export': { op: 'export_plugin', access: 'any' },
  'POST /api/plugins/export-batch': { op: 'export_plugins', access: 'admin' },
} satisfies PolicyRows

export const pluginsRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.plugins' })
    .use(requestContext(deps))
    .get(
      '/api/plugins/settings',
      async ({ query }) => ok(toWirePluginSettings(await getPluginSettings(deps, query.namespace))),
      { query: PluginModel.namespaceQuery },
    )
    .put(
      '/api/plugins/settings',
      async ({ query, body }) =>
        ok(toWirePluginSettings(await setPluginSettings(deps, query.namespace, body))),
      { query: PluginModel.namespaceQuery, body: PluginModel.settingsBody },
    )
    .get(
      '/api/plugins/options',
      async ({ query }) => ok({ options: await getPluginOptions(deps, query.namespace) }),
      { query: PluginModel.namespaceQuery },
    )
    .put(
      '/api/plugins/options',
      async ({ query, body }) =>
        ok({ options: await updatePluginOptions(deps, query.namespace, body) }),
      { query: PluginModel.namespaceQuery, body: PluginModel.optionsBody },
    )
    .delete(
      '/api/plugins/options',
      async ({ query }) => ok({ options: await resetPluginOptions(deps, query.namespace) }),
      { query: PluginModel.namespaceQuery },
    )
    .put(
      '/api/plugins/priority',
      async ({ body }) => {
        await setPluginPriority(deps, body.type, body.namespaces)
        return ok()
      },
      { body: PluginModel.priorityBody },
    )
    // A small multipart body read by the handler (policy `body: 'stream'`): the file part is held
    // in memory up to its cap, checked in the sandbox, and only then written.
    .post('/api/plugins/upload', async ({ request }) => {
      const form = await readMultipart(request, deps.config, {
        field: 'file',
        // The name is checked first: a .js or .zip is refused before its bytes are read.
        receive: async (filename, content) => {
          pluginStemOf(filename)
          return { filename, bytes: await readPluginSource(content) }
        },
        discard: async () => undefined,
      })
      const installed = await installUploadedPlugin(deps, form.file.filename, form.file.bytes, {
        replace: true,
        declaredNamespace: 'must-match',
      })
      return ok(toWireInstalled(installed))
    })
    .delete('/api/plugins', async ({ query }) => ok(await deletePlugin(deps, query.namespace)), {
      query: PluginModel.namespaceQuery,
    })
    .get(
      '/api/plugins/export',
      async ({ query }) => sendZip(await exportPlugin(deps, query.namespace)),
      { query: PluginModel.namespaceQuery },
    )
    .post(
      '/api/plugins/export-batch',
      async ({ body }) => sendZip(await exportPlugins(deps, body.namespaces)),
      { body: PluginModel.exportBatchBody },
    )
    // A run's params come from the query or a form body (runParams); the run now answers every
    // outcome with 200, `success` telling which, as LANraragi does.
    .post('/api/plugins/use', async ({ query, body }) => usePlugin(deps, runParams(body, query)), {
      query: PluginModel.runQuery,
      body: PluginModel.runBody,
    })
    .post(
      '/api/plugins/queue',
      async ({ query, body }) => ok(await queuePluginRun(deps, runParams(body, query))),
      { query: PluginModel.runQuery, body: PluginModel.runBody },
    )
    // Last: the static paths above must not be read as a type.
    .get(
      '/api/plugins/:type',
      async ({ params }) => (await listPluginsWithLogins(deps, params.type)).map(toWirePlugin),
      { params: PluginModel.typeParams },
    )

function sendZip(zip: PluginZip): Response {
  return new Response(zip.bytes, {
    headers: {
      'content-type': 'application/zip',
      'content-disposition': attachmentDisposition(zip.filename),
    },
  })
}
