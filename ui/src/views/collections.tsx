// Categories (`#/categories`) and Tankoubons (`#/tankoubons`, one at `#/tankoubons/<id>`); the
// pieces live in ui/src/collections/.
import { CategoriesView } from '../collections/categories.tsx'
import { TankoubonList } from '../collections/tankoubon-list.tsx'
import { TankoubonDetail } from '../collections/tankoubon-detail.tsx'

export { CategoriesView }

export function TankoubonsView({ parts }: { parts: string[] }) {
  return parts[0] ? <TankoubonDetail key={parts[0]} id={parts[0]} /> : <TankoubonList />
}
