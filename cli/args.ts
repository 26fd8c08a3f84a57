// The argument check of every `svc` command (node's util.parseArgs, strict, over the command table): anything wrong
// is a UsageError whose message is one line naming the problem and the command's usage, never a parser's stack.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { COMMANDS, usageLine } from './commands.js';

/** Wrong arguments: main prints the message alone and exits 2. */
export class UsageError extends Error {}

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export const asksForHelp = (args: readonly string[]): boolean => {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
};

/** parseArgs' own messages run on ("... To specify a positional argument ..."): its first sentence, lowercased. */
function firstSentence(message: string): string {
  const sentence = message.split(/\.\s/)[0]!.replace(/\.$/, '');
  return sentence.charAt(0).toLowerCase() + sentence.slice(1);
}

export function usageError(command: string, problem: string): UsageError {
  return new UsageError(`svc ${command}: ${problem} (${usageLine(command)})`);
}

export function parseCommandArgs(command: string, args: string[]): ParsedArgs {
  const spec = COMMANDS[command]!;
  const options: ParseArgsConfig['options'] = Object.fromEntries(Object.entries(spec.options).map(([name, o]) => [name, { type: o.type }]));
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: spec.subcommand !== undefined }) as ParsedArgs;
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS_')) throw usageError(command, firstSentence((err as Error).message));
    throw err;
  }
  if (spec.subcommand) {
    const [sub, ...extra] = parsed.positionals;
    if (sub === undefined) throw usageError(command, `missing the subcommand '${spec.subcommand}'`);
    if (sub !== spec.subcommand) throw usageError(command, `unknown subcommand '${sub}'`);
    if (extra.length > 0) throw usageError(command, `unexpected argument '${extra[0]}'`);
  }
  const missing = (spec.required ?? []).filter((name) => parsed.values[name] === undefined);
  if (missing.length > 0) throw usageError(command, `missing ${missing.map((m) => `--${m}`).join(', ')}`);
  return parsed;
}
