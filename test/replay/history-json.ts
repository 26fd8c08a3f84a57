// A workflow history in the proto3 JSON form the replayer reads, as the Temporal CLI prints it (the recorders'
// shared step).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
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
