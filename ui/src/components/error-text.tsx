// The server's (or a form's) message for a failed action, announced to screen readers; nothing
// when there is none.
export function ErrorText({ text }: { text: string | null | undefined }) {
  return text ? (
    <p class="error" role="alert">
      {text}
    </p>
  ) : null
}
