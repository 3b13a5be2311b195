// Placeholder until this view is written (issue 15).
export function MaintenanceView(_: { parts: string[] }) {
  return (
    <section>
      <h1>MaintenanceView</h1>
    </section>
  )
}
