// `npm run bench`: every benchmark, one after the other.
import { printEventsStreamTable, runEventsStreamBench } from './events-stream.js';
import { printSdkTable, runSdkBench } from './sdk.js';
import { printStorePurchaseTable, runStorePurchaseBench } from './store-purchase.js';
import { allLedgersExact, printWebhookTable, runWebhookBench } from './webhooks.js';

printSdkTable(await runSdkBench());
const webhooks = await runWebhookBench();
printWebhookTable(webhooks);
const store = await runStorePurchaseBench();
printStorePurchaseTable(store);
const events = await runEventsStreamBench();
printEventsStreamTable(events);
if (!allLedgersExact(webhooks) || store.some((r) => !r.ok) || events.some((r) => !r.ok)) process.exit(1);
