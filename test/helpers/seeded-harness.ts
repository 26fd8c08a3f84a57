// The preamble most integration files share: the harness plus one seeded account (org, app, active campaign,
// joined creator, funded wallet, agent key). `seed` is filled before any test runs; `h.ready()` resolves after it.
import type { TestFn } from 'ava';
import type { SeedResult } from '../../actions/seed.js';
import { useHarness, type Harness, type HarnessAccessor, type HarnessOptions } from './harness.js';
import { seedAccount } from './seed.js';

export function useSeededHarness(test: TestFn<unknown>, opts: HarnessOptions = {}): { h: HarnessAccessor; seed: SeedResult } {
  const harness = useHarness(test, opts);
  const seed = {} as SeedResult;
  let seeded: Promise<Harness> | undefined;
  const ready = () =>
    (seeded ??= harness.ready().then(async (running) => {
      Object.assign(seed, await seedAccount(running.db));
      return running;
    }));
  test.before(async () => {
    await ready();
  });
  return { h: Object.assign(() => harness(), { ready }), seed };
}
