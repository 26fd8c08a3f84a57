// The dashboard's batch invitation: a textarea of CSV-like lines (`email[,name[,lang]]`, commas, semicolons or tabs;
// a header line starting with `email` and lines starting with `#` are skipped) turned into the agent API's
// `creators` list. At most `max` lines (the agent API's batch limit); each line's address is checked by the invite
// handler itself, which answers per item, so one bad line never stops the others.
import { ValidationError } from '../errors/http-errors.js';

export interface BatchCreator {
  email: string;
  name?: string;
  lang?: string;
  message?: string;
}

export function parseCreatorBatch(text: string, max: number, message?: string): BatchCreator[] {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const rows = lines.map((l) => l.split(/[,;\t]/).map((f) => f.trim().replace(/^"(.*)"$/, '$1')));
  if (rows[0]?.[0]?.toLowerCase() === 'email') rows.shift();
  const problem = (msg: string) => new ValidationError([{ loc: ['body', 'creators'], msg, type: 'value_error' }]);
  if (rows.length === 0)
    throw problem('List at least one creator: one email per line, optionally followed by a name and a language (email,name,lang).');
  if (rows.length > max) throw problem(`At most ${max} creators per batch; this list has ${rows.length}. Split it.`);
  return rows.map(([email = '', name, lang]) => ({
    email,
    ...(name ? { name } : {}),
    ...(lang ? { lang } : {}),
    ...(message ? { message } : {}),
  }));
}
