// Placeholder until this view is written (issue 15).
export function DownloadsView(_: { parts: string[] }) {
  return (
    <section>
      <h1>DownloadsView</h1>
    </section>
  )
}
