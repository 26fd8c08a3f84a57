// The Stripe stub (test/stubs/stripe.ts) for one test file: started beside the harness, the harness's configuration
// pointed at it once both are up (the API and the worker read STRIPE_API_ROOT at each call), closed after the file.
import type { TestFn } from 'ava';
import { startStripeStub, type StripeStub } from '../stubs/stripe.js';
import type { HarnessAccessor } from './harness.js';

export const STRIPE_STUB_SECRET = 'sk_test_stub_secret_key';

/** The harness's variables for Stripe through the stub; the real origin is set once the stub listens. */
export const stripeStubEnv = (vars: Record<string, string> = {}): Record<string, string> => ({
  STRIPE_SECRET_KEY: STRIPE_STUB_SECRET,
  STRIPE_API_ROOT: 'http://127.0.0.1:9/',
  ...vars,
});

export function useStripeStub(test: TestFn<unknown>, h: HarnessAccessor, webhookSecret = 'whsec_test_platform'): () => StripeStub {
  let stub: StripeStub | undefined;
  const started = startStripeStub(STRIPE_STUB_SECRET, webhookSecret).then((s) => {
    stub = s;
  });
  test.before(async () => {
    await h.ready();
    await started;
    h().config.STRIPE_API_ROOT = stub!.url;
  });
  test.after.always(async () => {
    await stub?.close();
  });
  return () => stub!;
}
