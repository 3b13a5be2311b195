// Unix seconds as the reader's local date and time; absent or zero reads "never".
export function when(secs: number | null | undefined): string {
  return secs ? new Date(secs * 1000).toLocaleString() : 'never'
}
