// The language-model refiner of split suggestions (docs/llm.md): the model regroups the folder
// suggestion's outputs (merging folders that are one volume, naming each output) by their indices,
// so it never names pages: every page of the folder suggestion lands in exactly one output, and an
// answer that drops, repeats or invents an index is invalid and never used.
import { Type } from '@sinclair/typebox'
import type { Deps } from '../../deps.ts'
import { AppError, fail } from '../../errors.ts'
import type { ChatMessage } from '../../llm/client.ts'
import type { SplitOutput } from './plan.ts'
import type { SplitRefiner } from './suggest.ts'
import type { SplitTreeNode } from './tree.ts'

/** Folder outputs described to the model at most; a larger split keeps the folder suggestion. */
const MAX_OUTPUTS_SENT = 300
/** Tree lines shown (folders and nested archives only; pages are counted). */
const MAX_TREE_LINES = 400

/** Thrown when the model could not refine: the caller keeps the folder suggestion instead. */
export class SplitRefineFailed extends Error {
  constructor(readonly cause: AppError) {
    super(cause.message)
  }
}

const Answer = Type.Object({
  outputs: Type.Array(
    Type.Object({
      name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
      groups: Type.Array(Type.Integer({ minimum: 0 }), { minItems: 1 }),
    }),
    { minItems: 1 },
  ),
})
type AnswerShape = { outputs: { name: string; groups: number[] }[] }

const SYSTEM = `You plan how one comic archive that holds several volumes or chapters is split into
one archive per volume or chapter. You are given the archive's title, its folder tree, and a
first plan with one numbered output per folder. Regroup the numbered outputs: merge outputs that
belong to one volume (a volume's extras, covers or split parts), keep order, and name each output
"<series title> - <volume or chapter>". Every number must be used exactly once.`

function treeLines(node: SplitTreeNode, depth: number, out: string[]): void {
  if (out.length >= MAX_TREE_LINES || node.type === 'page') return
  out.push(`${'  '.repeat(depth)}${node.name}/ (${node.pages ?? 0} pages)`)
  for (const child of node.children ?? []) treeLines(child, depth + 1, out)
}

/** Checks the answer against the outputs asked about and builds the regrouped outputs. */
export function regroup(outputs: readonly SplitOutput[], answer: AnswerShape): SplitOutput[] {
  const used = new Set<number>()
  const names = new Set<string>()
  const invalid = (why: string) =>
    fail.bad_gateway(`The language model's split plan is invalid: ${why}.`, {
      reason: 'invalid_answer',
    })
  const regrouped = answer.outputs.map((output) => {
    const name = output.name.trim()
    if (names.has(name)) throw invalid(`the name ${JSON.stringify(name)} is used twice`)
    names.add(name)
    const pages: string[] = []
    for (const index of output.groups) {
      const group = outputs[index]
      if (!group) throw invalid(`there is no output ${index}`)
      if (used.has(index)) throw invalid(`output ${index} is used twice`)
      used.add(index)
      pages.push(...group.pages)
    }
    return { name, pages }
  })
  if (used.size !== outputs.length)
    throw invalid(`${outputs.length - used.size} of the ${outputs.length} outputs are left out`)
  return regrouped
}

/** The refiner, or undefined when no provider is configured (the folder suggestion stands). */
export function llmSplitRefiner(
  deps: Pick<Deps, 'llm'>,
  signal?: AbortSignal,
): SplitRefiner | undefined {
  if (!deps.llm.configured()) return undefined
  return async ({ title, tree, outputs }) => {
    // One output (or too many to describe) leaves nothing the model could usefully regroup.
    if (outputs.length < 2 || outputs.length > MAX_OUTPUTS_SENT) return outputs
    const lines: string[] = []
    treeLines(tree, 0, lines)
    const plan = outputs
      .map(
        (o, i) =>
          `${i}. ${JSON.stringify(o.name)} (${o.pages.length} pages, first ${JSON.stringify(o.pages[0])})`,
      )
      .join('\n')
    const messages: ChatMessage[] = [
      { role: 'system', content: SYSTEM },
      {
        role: 'user',
        content:
          `Title: ${JSON.stringify(title)}\nTree:\n${lines.join('\n')}\n\nFirst plan:\n${plan}\n\n` +
          'Answer {"outputs": [{"name": output name, "groups": [numbers of the first plan]}]}.',
      },
    ]
    try {
      const answer = await deps.llm.json<AnswerShape>(messages, Answer, { signal })
      return regroup(outputs, answer)
    } catch (error) {
      if (error instanceof AppError && error.code === 'bad_gateway')
        throw new SplitRefineFailed(error)
      throw error
    }
  }
}
