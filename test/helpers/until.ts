// Polling for a condition instead of sleeping a fixed time: true once `check` holds, false when
// `limitMs` passed without it (the caller asserts or says what it waited for).
export async function until(
  check: () => boolean | Promise<boolean>,
  limitMs = 15_000,
  everyMs = 25,
): Promise<boolean> {
  const deadline = Date.now() + limitMs
  while (!(await check()) && Date.now() < deadline) await Bun.sleep(everyMs)
  return check()
}
