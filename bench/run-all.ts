// `npm run bench`: every benchmark, one after the other.
import { printSdkTable, runSdkBench } from './sdk.js';
import { printStorePurchaseTable, runStorePurchaseBench } from './store-purchase.js';
import { allLedgersExact, printWebhookTable, runWebhookBench } from './webhooks.js';

printSdkTable(await runSdkBench());
const webhooks = await runWebhookBench();
printWebhookTable(webhooks);
const store = await runStorePurchaseBench();
printStorePurchaseTable(store);
if (!allLedgersExact(webhooks) || store.some((r) => !r.ok)) process.exit(1);
