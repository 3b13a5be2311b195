// Placeholder until this view is written (issue 15).
export function UploadView(_: { parts: string[] }) {
  return (
    <section>
      <h1>UploadView</h1>
    </section>
  )
}
