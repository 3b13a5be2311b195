// A plugin's secret arguments kept out of what its runs report: the message of a run that fails
// ("login refused for user:hunter2") reaches job results, which guest tokens list, and the log.
// Every occurrence of a secret value in such a text becomes `***`; which values are secret is
// runSecrets's answer (domain/plugins/run-log.ts).

/** Every occurrence of each secret (longest first: domain/plugins/run-log.ts runSecrets). */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) out = out.split(secret).join('***')
  return out
}
