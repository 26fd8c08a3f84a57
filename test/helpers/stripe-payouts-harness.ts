// A harness for payouts through the local Stripe stub (test/stubs/stripe.ts): Stripe's keys and webhook secrets, the
// stub started beside the harness and Stripe's API root pointed at it once both are up, the payout connect routes
// mounted behind the test's creator header (test/helpers/payouts.ts), the stub closed after the file.
import type { TestFn } from 'ava';
import { startStripeStub, type StripeStub } from '../stubs/stripe.js';
import { useHarness, type HarnessAccessor } from './harness.js';
import { mountConnect } from './payouts.js';

export const STRIPE_SECRET = 'sk_test_stub_payouts';
export const STRIPE_WEBHOOK_SECRET = 'whsec_test_payouts_platform';
export const STRIPE_CONNECT_SECRET = 'whsec_test_payouts_connect';

export function useStripePayoutsHarness(
  test: TestFn<unknown>,
  env: Record<string, string> = {},
): { h: HarnessAccessor; stub: () => StripeStub } {
  let stub: StripeStub | undefined;
  const stubReady = startStripeStub(STRIPE_SECRET, STRIPE_WEBHOOK_SECRET).then((s) => {
    stub = s;
  });
  const h = useHarness(test, {
    env: {
      STRIPE_SECRET_KEY: STRIPE_SECRET,
      STRIPE_WEBHOOK_SECRET,
      STRIPE_CONNECT_WEBHOOK_SECRET: STRIPE_CONNECT_SECRET,
      STRIPE_API_ROOT: 'http://127.0.0.1:9/',
      ...env,
    },
    mount: mountConnect,
  });
  test.before(async () => {
    await h.ready();
    await stubReady;
    h().config.STRIPE_API_ROOT = stub!.url;
  });
  test.after.always(async () => {
    await stub?.close();
  });
  return { h, stub: () => stub! };
}
