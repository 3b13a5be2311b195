// Placeholder until this view is written (issue 15).
export function CompareView(_: { parts: string[] }) {
  return (
    <section>
      <h1>CompareView</h1>
    </section>
  )
}
