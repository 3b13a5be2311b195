// Placeholder until this view is written (issue 15).
export function ArchiveView(_: { parts: string[] }) {
  return (
    <section>
      <h1>ArchiveView</h1>
    </section>
  )
}
