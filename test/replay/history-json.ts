// A workflow history in the proto3 JSON form the replayer reads, as the Temporal CLI prints it (the recorders'
// shared step), and what a recorder module is given and answers.
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Config } from '../../runtime/config.js';
import { resolveBinary, TEMPORAL_CLI } from '../../runtime/temporal-binaries.js';

/** The history in the proto3 JSON form the replayer reads, as the Temporal CLI prints it (`workflow show -o json`). */
export async function historyJson(address: string, workflowId: string, runId?: string): Promise<{ json: string; events: number }> {
  const cli = (await resolveBinary(TEMPORAL_CLI)).path;
  const args = [
    'workflow',
    'show',
    '--address',
    address,
    '--workflow-id',
    workflowId,
    ...(runId ? ['--run-id', runId] : []),
    '--output',
    'json',
  ];
  const { stdout } = await promisify(execFile)(cli, args, { maxBuffer: 64 * 1024 * 1024 });
  return { json: stdout, events: (JSON.parse(stdout) as { events: unknown[] }).events.length };
}

/** What a recorder module is given: the recording's client, task queue, database, worker configuration, Temporal address. */
export interface Recording {
  client: Client;
  taskQueue: string;
  db: Knex;
  /** The worker's own configuration: a recorder may change it in place for its runs and restores it after. */
  config: Config;
  address: string;
}

/** One history, named as its file (without `.json`). */
export interface Recorded {
  name: string;
  json: string;
  events: number;
}
