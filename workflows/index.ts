// The workflow bundle's entry point: every workflow type the worker serves.
export { systemCheckWorkflow } from './system-check.js';
export { conversionWorkflow } from './conversion.js';
export { testIntegrationWorkflow } from './test-integration.js';
export { credentialCheckWorkflow } from './credential-check.js';
export { storePurchaseWorkflow } from './store-purchase.js';
export { playVoidedSyncWorkflow } from './play-voided-sync.js';
export { autoRechargeWorkflow } from './auto-recharge.js';
export { playNotificationWorkflow } from './google-notification.js';
export { storeNotificationWorkflow } from './apple-notification.js';
export { notificationHistoryWorkflow } from './notification-history.js';
export { payoutRunWorkflow, platformBalanceCheckWorkflow } from './payout-run.js';
