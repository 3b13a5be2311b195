// Placeholder until this view is written (issue 15).
export function JobsView(_: { parts: string[] }) {
  return (
    <section>
      <h1>JobsView</h1>
    </section>
  )
}
