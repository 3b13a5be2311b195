// What the wizard tells the model when it writes a plugin: the plugin contract (the SDK the
// plugins are checked against, plugins/sdk.d.ts) and a built-in plugin of the requested type as a
// worked example, then the user's request as they sent it.
import { join } from 'node:path'
import { BUILTIN_PLUGINS_DIR } from '../../assets.ts'
import { PLUGIN_TYPES, type PluginType } from '../../plugins/manifest.ts'
import type { ChatMessage } from '../../llm/client.ts'
import type { GenerationRequest } from './generations.ts'

/** A short, tested built-in of each type, shown whole. */
const EXAMPLE_OF: Record<PluginType, string> = {
  download: 'download/direct.ts',
  login: 'login/ehentai.ts',
  metadata: 'metadata/chaika.ts',
  script: 'script/source-finder.ts',
}

const RULES = `You write plugins for Tankobun, a comic library server. A plugin is ONE TypeScript file
that imports nothing and runs in a sandbox. It exports pluginInfo() and the hook of its type:
execMetadata(ctx) for metadata, execLogin(ctx) for login, execDownload(ctx) for download,
runScript(ctx) for script. The only globals are the ones the SDK below declares (fetch, html,
console, sleep, URL, URLSearchParams, TextEncoder, TextDecoder, atob, btoa) plus the JavaScript
language: no Node, no DOM, no require, no import. fetch reaches only the hosts listed in
pluginInfo().hosts, so list every host the plugin fetches from. Answer a failure as { error: '...' }.
Answer with the complete file in one \`\`\`ts code block and nothing else.`

/** The requested plugin type, when the request names a known one. */
export function requestedType(request: GenerationRequest): PluginType | undefined {
  const type = request.type
  return PLUGIN_TYPES.find((known) => known === type)
}

export async function generationPrompt(request: GenerationRequest): Promise<ChatMessage[]> {
  const sdk = await Bun.file(join(BUILTIN_PLUGINS_DIR, 'sdk.d.ts')).text()
  const type = requestedType(request) ?? 'metadata'
  const example = await Bun.file(join(BUILTIN_PLUGINS_DIR, EXAMPLE_OF[type])).text()
  return [
    {
      role: 'system',
      content:
        `${RULES}\n\nThe SDK (plugins/sdk.d.ts):\n\`\`\`ts\n${sdk}\n\`\`\`\n\n` +
        `A working ${type} plugin, for its shape:\n\`\`\`ts\n${example}\n\`\`\``,
    },
    {
      role: 'user',
      content:
        'Write the plugin this request describes (JSON as the user sent it; type, description, ' +
        `sample_url, login_from and notes when given):\n${JSON.stringify(request, null, 2)}`,
    },
  ]
}
