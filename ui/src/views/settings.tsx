// Placeholder until this view is written (issue 15).
export function SettingsView(_: { parts: string[] }) {
  return (
    <section>
      <h1>SettingsView</h1>
    </section>
  )
}
