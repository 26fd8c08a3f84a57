// `npm run bench`: every benchmark, one after the other.
import { printSdkTable, runSdkBench } from './sdk.js';
import { printStorePurchaseTable, runStorePurchaseBench } from './store-purchase.js';
import { printWebhookTable, runWebhookBench } from './webhooks.js';

printSdkTable(await runSdkBench());
const webhooks = await runWebhookBench();
printWebhookTable(webhooks);
const store = await runStorePurchaseBench();
printStorePurchaseTable(store);
if (webhooks.some((r) => !r.ledgerOk) || store.some((r) => !r.ok)) process.exit(1);
