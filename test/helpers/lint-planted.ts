// Lints a planted source from memory with the project's own eslint.config.js, under the name of an existing file
// (type-aware linting needs a file the project's tsconfig knows); nothing is written. Answers one rule's messages.
import { ESLint, type Linter } from 'eslint';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** One rule's messages (text, line, column) for a planted source. */
export async function plantedMessages(asFile: string, code: string, ruleId: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, asFile) });
  const fatal = result!.messages.filter((m) => m.fatal);
  if (fatal.length > 0) throw new Error(fatal.map((m) => m.message).join('; '));
  return result!.messages.filter((m) => m.ruleId === ruleId);
}

export async function lintPlanted(asFile: string, code: string, ruleId: string): Promise<string[]> {
  return (await plantedMessages(asFile, code, ruleId)).map((m) => m.message);
}
