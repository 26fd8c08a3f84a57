// Every `svc` command's arguments: its usage line, what it does, its options, and what it cannot run without. The one
// table that `--help`, `svc help COMMAND`, the overview and the argument check (args.ts) read, so they cannot drift.

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** The value's placeholder in help (string options). */
  value?: string;
  help: string;
}

export interface CommandSpec {
  /** After `svc NAME`: the subcommand and options as the usage line shows them. */
  args: string;
  summary: string;
  /** The positional subcommand the command needs (`svc payouts run`). */
  subcommand?: string;
  options: Readonly<Record<string, OptionSpec>>;
  /** Options the command cannot run without. */
  required?: readonly string[];
}

const json = (what: string): OptionSpec => ({ type: 'boolean', help: `print ${what} as one JSON object` });

export const COMMANDS: Readonly<Record<string, CommandSpec>> = {
  dev: {
    args: '[--reset] [--rehydrate]',
    summary: 'everything for local development (npm start): embedded PostgreSQL, Temporal, migrations, worker, API',
    options: {
      reset: { type: 'boolean', help: 'empty the data folder first (a fresh instance)' },
      rehydrate: {
        type: 'boolean',
        help: 'restart open conversion workflows of an older generation from PostgreSQL before the worker starts',
      },
    },
  },
  api: { args: '', summary: 'the HTTP API alone, configured by environment (DATABASE_URL, TEMPORAL_ADDRESS, PORT, ...)', options: {} },
  worker: { args: '', summary: 'the Temporal worker alone, configured by environment', options: {} },
  migrate: {
    args: '[--status] [--rollback]',
    summary: 'apply the database migrations (or show them, or roll back the last batch)',
    options: {
      status: { type: 'boolean', help: 'show applied and pending migrations, change nothing' },
      rollback: { type: 'boolean', help: 'roll back the last batch' },
    },
  },
  seed: {
    args: '--json',
    summary: 'create a new demo organization and print its credentials as JSON',
    required: ['json'],
    options: { json: json('the credentials (the only output form)') },
  },
  'agent-key': {
    args: 'create --org ORG_ID [--scopes a,b] [--name NAME] [--json]',
    summary: 'create an agent key for an organization (all scopes unless --scopes)',
    subcommand: 'create',
    required: ['org'],
    options: {
      org: { type: 'string', value: 'ORG_ID', help: 'the organization the key belongs to' },
      scopes: { type: 'string', value: 'a,b', help: 'comma-separated scopes (default: all)' },
      name: { type: 'string', value: 'NAME', help: 'a label for the key (default "CLI key")' },
      json: json('{"agent_key"}'),
    },
  },
  events: {
    args: 'retry --app APP_ID [--event EVENT_ID] [--json]',
    summary: 're-drive purchase events recorded as failed (after a fix); exit 1 if any still fail',
    subcommand: 'retry',
    required: ['app'],
    options: {
      app: { type: 'string', value: 'APP_ID', help: 'the app whose failed events are retried' },
      event: { type: 'string', value: 'EVENT_ID', help: 'only this event' },
      json: json('the outcome'),
    },
  },
  workflows: {
    args: 'rehydrate [--json]',
    summary: 'restart open conversion workflows of an older generation from PostgreSQL (after an upgrade that removed one)',
    subcommand: 'rehydrate',
    options: { json: json('the outcome') },
  },
  payouts: {
    args: 'run --org ORG_ID [--run-id ID] [--dry-run] [--json]',
    summary: "pay the organization's payable commissions and approved bonus awards (clawbacks netted), once per run id",
    subcommand: 'run',
    required: ['org'],
    options: {
      org: { type: 'string', value: 'ORG_ID', help: 'the organization to pay out' },
      'run-id': { type: 'string', value: 'ID', help: "the run's id: a repeat with the same id pays nothing again (default: a new one)" },
      'dry-run': { type: 'boolean', help: 'show what would be paid, write nothing' },
      json: json('the run'),
    },
  },
  mail: {
    args: '--to EMAIL [--json]',
    summary: 'the mails the service wrote to its outbox for one address, newest first, with their links',
    required: ['to'],
    options: {
      to: { type: 'string', value: 'EMAIL', help: 'the recipient address (any case)' },
      json: json('{"mails": [{"to", "subject", "created_at", "status", "links"}]}'),
    },
  },
  config: {
    args: '[--markdown]',
    summary: 'print the configuration variables and their values (secrets masked) or defaults',
    options: { markdown: { type: 'boolean', help: 'print the variables and their defaults as a Markdown table' } },
  },
};

export const usageLine = (name: string): string => `usage: svc ${name}${COMMANDS[name]!.args ? ` ${COMMANDS[name]!.args}` : ''}`;

/**
 * Two columns, the text starting where the longest left cell ends plus two spaces, so a command or an option and
 * its text never run together (the overview once printed "workflows rehydraterestart").
 */
export function helpColumns(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, text]) => `  ${left.padEnd(width)}${text}`);
}

/** `svc NAME --help` and `svc help NAME`. */
export function commandHelp(name: string): string {
  const spec = COMMANDS[name]!;
  const options = Object.entries(spec.options).map(([option, o]): [string, string] => [
    `--${option}${o.value ? ` ${o.value}` : ''}`,
    o.help,
  ]);
  return [usageLine(name), spec.summary, 'options:', ...helpColumns([...options, ['--help', 'this help']])].join('\n');
}

/** `svc`, `svc --help` and `svc help`: every command. */
export function overview(): string {
  const rows: [string, string][] = Object.entries(COMMANDS).map(([name, spec]) => [
    `${name}${spec.subcommand ? ` ${spec.subcommand}` : ''}`,
    spec.summary,
  ]);
  rows.push(['help COMMAND', 'the options of one command (also: svc COMMAND --help)']);
  return ['usage: svc <command> [options]', ...helpColumns(rows)].join('\n');
}
