// Placeholder until this view is written (issue 15).
export function PluginsView(_: { parts: string[] }) {
  return (
    <section>
      <h1>PluginsView</h1>
    </section>
  )
}
