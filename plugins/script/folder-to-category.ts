// Built-in script plugin: a static category per subfolder of the content folder, holding the
// archives that sit directly in it (LANraragi's "Subfolders to Categories"). Archives at the top
// of the content folder get none. Unlike LANraragi's, running it again fills the category of the
// same name it made before instead of making a second one.

export function pluginInfo(): PluginInfo {
  return {
    name: 'Subfolders to Categories',
    author: 'Tankobun',
    description:
      'Makes a static category for each subfolder of the content folder, holding the archives directly in it.',
    version: '1.0',
    type: 'script',
    parameters: [
      {
        name: 'delete_old',
        type: 'bool',
        desc: 'Delete all static categories before creating the ones matching the subfolders',
        default_value: false,
      },
    ],
  }
}

export async function runScript(ctx: PluginContext): Promise<ScriptResult | PluginError> {
  const library = ctx.library
  if (!library) return { error: 'This plugin needs the library (run it on the server).' }

  let categories = await library.categories()
  if (ctx.args.delete_old === true || ctx.args.delete_old === 1 || ctx.args.delete_old === '1') {
    for (const category of categories)
      if (category.search === '' && !category.protected) await library.deleteCategory(category.id)
    // Favorites (protected) stays: it is the user's own, not a folder's.
    categories = categories.filter((category) => category.search !== '' || category.protected)
  }

  // Archives by the name of the folder they sit in (its last part, as LANraragi names them).
  const byFolder = new Map<string, string[]>()
  let after: string | undefined
  for (;;) {
    const page = await library.archives({ after, limit: 1000 })
    for (const archive of page.archives) {
      if (archive.folder === '') continue
      const name = archive.folder.slice(archive.folder.lastIndexOf('/') + 1)
      const ids = byFolder.get(name)
      if (ids) ids.push(archive.arcid)
      else byFolder.set(name, [archive.arcid])
    }
    if (page.next === null) break
    after = page.next
  }

  const created: string[] = []
  const updated: string[] = []
  let added = 0
  for (const [name, ids] of byFolder) {
    const existing = categories.find((c) => c.search === '' && !c.protected && c.name === name)
    const id = existing?.id ?? (await library.createCategory(name))
    ;(existing ? updated : created).push(id)
    for (let i = 0; i < ids.length; i += 10_000)
      added += await library.addToCategory(id, ids.slice(i, i + 10_000))
  }
  console.log(
    `${created.length} categories created, ${updated.length} filled again, ${added} archives added`,
  )
  return { data: { created_categories: created, updated_categories: updated, added } }
}
