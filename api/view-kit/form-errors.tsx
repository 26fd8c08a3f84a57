// A refused form, for people (issue 41): the validator's problems (ajv's through lib/validation.ts, and the domain
// checks' `ValidationError`s) become one sentence per field in words, shown under that field, with what was typed
// kept and the focus on the first field that needs a change (the form's own order: the posted fields' order). The
// schema words ("must match pattern", "Field required", "must be integer,null"), field keys and REST paths never
// reach the page: a form names its fields' labels and, where a schema rule cannot be said generically (a pattern), the
// rule in words (`FormWords`). Used by form-reply.tsx (every dashboard REST form) and by the pages that check their
// own forms (sign-up, team invite, agent keys).
import type { FieldProblem } from '../../errors/http-errors.js';
import { humanProblem, type FormState } from './ui.js';

/** What a form calls its fields (its labels) and the rule of a field in words where the validator's would not do. */
export interface FormWords {
  labels: Record<string, string>;
  rules?: Record<string, string>;
  /** A problem's field → the form field it shows under (a file read into `private_key` shows under `file`). */
  fieldOf?: Record<string, string>;
  /** The field a conflict (409: a code or slug taken) is about, shown under it. */
  conflict?: string;
}

/** Typed values never kept for the page that shows the error (secrets, and the form's own plumbing). */
const NOT_KEPT = /^(csrf|return_to|confirmed|password|.*secret.*|.*private_key.*|service_account_json)$/;

const SCHEMA_TYPES: [RegExp, string][] = [
  [/^must be (integer)(,null)?$/, 'Enter a whole number.'],
  [/^must be (number)(,null)?$/, 'Enter a number.'],
  [/^must be (string)(,null)?$/, 'Enter text.'],
];

/** A REST call or a tool name in a sentence is for agents: people get the page's own way (a link, a button). */
const FOR_AGENTS = /\b(GET|POST|PATCH|PUT|DELETE) \/\S+|\bsvc_[a-z_]+\b/;

/** The sentences of `text` a person can act on (those naming REST calls or tools are left out). */
export function forPeople(text: string): string {
  const kept = text.split(/(?<=[.!?])\s+/).filter((s) => !FOR_AGENTS.test(s));
  return kept.join(' ').trim() || text.replace(FOR_AGENTS, 'the page').trim();
}

/** The type of a problem whose message is already written for people (a form's own check, a conflict, a refused file). */
export const SAID = 'said';

/** One problem in words: the form's rule for the field, else the validator's message made readable. */
function sentenceOf(p: FieldProblem, field: string, words?: FormWords): string {
  const rule = words?.rules?.[field];
  if (p.type === SAID) return p.msg;
  if (p.type === 'missing' || p.msg === 'Field required') return rule ?? 'Fill this in.';
  if (rule) return rule;
  if (p.type === 'pattern')
    return /\^https:\/\//.test(p.msg) ? 'Enter an address starting with https://' : 'Check the hint: this is not in the expected form.';
  for (const [re, say] of SCHEMA_TYPES) if (re.test(p.msg)) return say;
  const said = humanProblem(forPeople(p.msg));
  return /[.!?]$/.test(said) ? said : `${said}.`;
}

/** "holding_period_days" → "Holding period days" (when a form does not name a field). */
const fieldWords = (name: string): string => {
  const w = name.replace(/_/g, ' ');
  return w ? w[0]!.toUpperCase() + w.slice(1) : 'The form';
};

export interface FormProblems {
  /** Per field, its sentence (the first problem of a field wins). */
  errors: Record<string, string>;
  /** Every problem, as "Label: sentence", in the form's order (the page's summary). */
  lines: string[];
}

/** The problems of a refusal per field, in words; `order` is the form's field order (the posted fields). */
export function problemsInWords(problems: readonly FieldProblem[], words?: FormWords, order: readonly string[] = []): FormProblems {
  const errors: Record<string, string> = {};
  for (const p of problems) {
    const raw = String(p.loc.at(-1) ?? '');
    if (p.type === 'extra_forbidden') continue; // a field the page does not have: nothing a person can change
    const field = words?.fieldOf?.[raw] ?? raw;
    errors[field] ??= sentenceOf(p, field, words);
  }
  const rank = (f: string) => (order.includes(f) ? order.indexOf(f) : order.length);
  const fields = Object.keys(errors).sort((a, b) => rank(a) - rank(b));
  const sorted = Object.fromEntries(fields.map((f) => [f, errors[f]!]));
  return { errors: sorted, lines: fields.map((f) => `${words?.labels[f] ?? fieldWords(f)}: ${errors[f]}`) };
}

/** What was typed, for the re-shown form (no secrets, no files, no plumbing). */
export function keptValues(form: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => typeof e[1] === 'string' && !NOT_KEPT.test(e[0])));
}

/** The re-shown form's state: messages per field, what was typed, and the focus on the first field in the form's order. */
export function formStateOf(errors: Record<string, string>, typed: Record<string, unknown>): FormState {
  const order = Object.keys(typed);
  const first = Object.keys(errors).sort((a, b) => rankIn(order, a) - rankIn(order, b))[0];
  return { errors, values: keptValues(typed), ...(first ? { focus: first } : {}) };
}

const rankIn = (order: readonly string[], f: string) => (order.includes(f) ? order.indexOf(f) : order.length);

/** A page's own checks that failed (by field, each said by the form's rule): the re-shown form's state and summary lines. */
export function refusal(
  failing: readonly string[],
  words: FormWords,
  typed: Record<string, unknown>,
): { state: FormState; lines: string[] } {
  const problems = failing.map((f): FieldProblem => ({ loc: ['body', f], msg: '', type: 'value_error' }));
  const { errors, lines } = problemsInWords(problems, words, Object.keys(typed));
  return { state: formStateOf(errors, typed), lines };
}

/** The summary above a re-shown form: how many fields need a change, each listed (the fields carry the same words). */
export function ProblemSummary({ lines, verb = 'saved' }: { lines: readonly string[]; verb?: string }) {
  if (lines.length === 0) return null;
  return (
    <div class="flash bad" role="alert">
      <p>
        Not {verb}: {lines.length === 1 ? 'one field needs' : `${lines.length} fields need`} a change (marked below).
      </p>
      <ul>
        {lines.map((l) => (
          <li>{l}</li>
        ))}
      </ul>
    </div>
  );
}

/** Under a file field of a re-shown form: browsers never keep a chosen file, so it has to be picked again. */
export const FILE_AGAIN = 'Choose the file again: for your safety, browsers do not keep a chosen file when a form comes back.';
