// The orchestration floor of the webhook benchmark: an entity workflow whose update does nothing. How fast this
// runs is what the Temporal server and SDK cost on the machine, before any of our work.
import { condition, defineUpdate, setHandler } from '@temporalio/workflow';

export const echoUpdate = defineUpdate<string, [string]>('echo');

export async function echoWorkflow(): Promise<void> {
  setHandler(echoUpdate, (x) => x);
  await condition(() => false, '1 day');
}
