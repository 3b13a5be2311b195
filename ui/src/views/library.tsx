// Placeholder until this view is written (issue 15).
export function LibraryView(_: { parts: string[] }) {
  return (
    <section>
      <h1>LibraryView</h1>
    </section>
  )
}
