// The tab's title follows the view (`Library · <server name>`), so a screen reader, the history
// list and the tab strip say which page this is.
import { useEffect } from 'preact/hooks'
import { serverInfo } from '../session.ts'

/** Sets the title while `title` is not null (null: a view inside sets its own). */
export function usePageTitle(title: string | null) {
  const server = serverInfo.value?.name || 'Tankobun'
  useEffect(() => {
    if (title !== null) document.title = `${title} · ${server}`
  }, [title, server])
}
