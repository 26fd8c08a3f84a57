// `npm run bench`: every benchmark, one after the other.
import { printSdkTable, runSdkBench } from './sdk.js';
import { printWebhookTable, runWebhookBench } from './webhooks.js';

printSdkTable(await runSdkBench());
const webhooks = await runWebhookBench();
printWebhookTable(webhooks);
if (webhooks.some((r) => !r.ledgerOk)) process.exit(1);
