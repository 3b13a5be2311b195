// Placeholder until these views are written (issue 15).
export function CategoriesView(_: { parts: string[] }) {
  return (
    <section>
      <h1>Categories</h1>
    </section>
  )
}
export function TankoubonsView(_: { parts: string[] }) {
  return (
    <section>
      <h1>Tankoubons</h1>
    </section>
  )
}
