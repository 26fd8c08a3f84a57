// Every recorded lifecycle (test/replay/histories/*.json, `npm run replay:record`) replays against the current
// workflow code without a determinism error: running conversions survive a deploy.
import { Worker } from '@temporalio/worker';
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createLogger } from '../../runtime/logger.js';
import { installRuntime, workflowBundle } from '../../worker/worker.js';

const DIR = fileURLToPath(new URL('./histories/', import.meta.url));
const files = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();

test('at least six recorded lifecycles are kept', (t) => {
  t.true(files.length >= 6, files.join(', '));
});

test('every recorded history replays without a determinism error', async (t) => {
  installRuntime(createLogger('silent'), { handleSignals: false });
  const histories = files.map((file) => ({ workflowId: file.replace(/\.json$/, ''), history: JSON.parse(readFileSync(`${DIR}${file}`, 'utf8')) as unknown }));
  const results = [];
  for await (const result of Worker.runReplayHistories({ workflowBundle: await workflowBundle() }, histories)) results.push(result);
  t.is(results.length, files.length);
  for (const r of results) t.is(r.error, undefined, `${r.workflowId}: ${String(r.error)}`);
});
