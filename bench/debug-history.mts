// temporary: print event timing of a few store-purchase workflows
import { Client, Connection } from '@temporalio/client';
const address = process.argv[2]!;
const client = new Client({ connection: await Connection.connect({ address }) });
let n = 0;
for await (const wf of client.workflow.list({ query: "WorkflowType='storePurchaseWorkflow'" })) {
  if (n++ % 37 !== 0) continue;
  const h = await client.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory();
  const at = (e: NonNullable<typeof h.events>[number]) => Number(e.eventTime!.seconds) * 1000 + Math.round((e.eventTime!.nanos ?? 0) / 1e6);
  const t0 = at(h.events![0]!);
  console.log(wf.workflowId.slice(-8), h.events!.map((e) => `${e.eventType}:${at(e) - t0}`).join(' '));
  if (n > 300) break;
}
process.exit(0);
