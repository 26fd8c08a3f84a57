// The orchestration floor of the webhook benchmark: entity workflows whose update does nothing. How fast these run
// is what the Temporal server and SDK cost on the machine, before any of our work. The second one does what every
// conversion event must at least do by design (DESIGN.md "Temporal"): its update awaits one local activity, here
// one that does nothing.
import { condition, defineUpdate, proxyLocalActivities, setHandler } from '@temporalio/workflow';

/** Answers the length of what it was given: the answer stays small whatever the payload. */
export const echoUpdate = defineUpdate<string, [string]>('echo');

export interface EchoActivities {
  echoLength(x: string): Promise<string>;
}

const { echoLength } = proxyLocalActivities<EchoActivities>({ startToCloseTimeout: '10 seconds' });

export async function echoWorkflow(): Promise<void> {
  setHandler(echoUpdate, (x) => String(x.length));
  await condition(() => false, '1 day');
}

export async function echoActivityWorkflow(): Promise<void> {
  setHandler(echoUpdate, (x) => echoLength(x));
  await condition(() => false, '1 day');
}
