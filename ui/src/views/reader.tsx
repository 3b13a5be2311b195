// Placeholder until this view is written (issue 15).
export function ReaderView(_: { parts: string[] }) {
  return (
    <section>
      <h1>ReaderView</h1>
    </section>
  )
}
