// Fault drill: a store-direct iOS app whose subscribers reach us both ways, App Store Server Notifications and the
// app's own reports (test/helpers/store-mix.ts), while `svc worker` is SIGKILLed and restarted and then `svc api` is
// SIGKILLed with requests in flight and restarted on its port (production shape: separate processes on the run's
// PostgreSQL and Temporal). Apple redelivers whatever was not answered 200, and every notification once more besides;
// the app reports again until answered. In the end every purchase event exists once, every commission is exact and
// the ledger too (test/helpers/store-mix-checks.ts).
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { freePort } from '../../runtime/ports.js';
import { createTestDatabase } from '../helpers/database.js';
import { stopAll } from '../helpers/drill.js';
import { requireTestEnv } from '../helpers/env.js';
import { notificationPayload, signTransaction } from '../helpers/apple-signing.js';
import { request } from '../helpers/http.js';
import { progressGate } from '../helpers/provider.js';
import { APP_APPLE_ID, startStoreStubs, storeAccount, storeConfig, switchToStoreDirect } from '../helpers/store-direct.js';
import { StoreSender, storeMixWorkload } from '../helpers/store-mix.js';
import { assertStoreMixExact, waitForStoreDrain } from '../helpers/store-mix-checks.js';
import { startSvc, type SvcProcess } from '../helpers/svc-processes.js';

const SUBSCRIBERS = Number(process.env.DRILL_SUBSCRIPTIONS ?? 36);

test(
  'notifications and app reports mixed, worker and API ' + 'SIGKILLed: every event once, every commission and the ledger exact',
  async (t) => {
    t.timeout(6 * 60_000);
    const database = await createTestDatabase();
    const world = await startStoreStubs();
    const running: SvcProcess[] = [];
    try {
      const port = await freePort();
      const baseUrl = `http://127.0.0.1:${port}`;
      // One master key for both processes (the worker decrypts the credential the API stored); TRUST_PROXY: each user
      // enters its code from an address of its own (manual entries are deduplicated per address).
      const vars = {
        DATABASE_URL: database.url,
        TEMPORAL_ADDRESS: requireTestEnv().temporalAddress,
        TEMPORAL_TASK_QUEUE: `drill-${randomBytes(4).toString('hex')}`,
        SVC_MASTER_KEY: randomBytes(32).toString('base64'),
        BASE_URL: baseUrl,
        TRUST_PROXY: 'true',
        ...storeConfig(world),
      };
      const [worker, api] = await Promise.all([startSvc('worker', vars), startSvc('api', vars, port)]);
      running.push(worker, api);

      const account = await storeAccount({ db: database.db }, { walletUsd: 100_000 });
      const sign = (payload: Record<string, unknown>) => signTransaction(world.chain, payload);
      world.apple.onTestNotification = async () => {
        await request(baseUrl, 'POST', `/api/webhooks/apple/${account.app_id}`, {
          body: {
            signedPayload: sign(notificationPayload({ notificationType: 'TEST', bundleId: account.bundleId, appAppleId: APP_APPLE_ID })),
          },
        });
      };
      await switchToStoreDirect({ baseUrl }, world, account, 'ios');
      const mix = storeMixWorkload(SUBSCRIBERS, world, account, randomBytes(3).toString('hex'));
      for (const s of mix.subscribers) {
        const entered = await request(baseUrl, 'POST', '/api/sdk/set-referral-code', {
          token: account.sdk_key,
          body: { code: account.creator_code, app_user_id: s.userId },
          headers: { 'x-forwarded-for': `10.77.${s.index >> 8}.${s.index & 255}` },
        });
        if (entered.status !== 200 || entered.body.already_attributed)
          throw new Error(`code entry of ${s.userId}: ${entered.status} ${entered.text}`);
      }

      const sender = new StoreSender({
        baseUrl: () => baseUrl,
        appId: account.app_id,
        sdkKey: account.sdk_key,
        db: database.db,
        giveUpAfterMs: 120_000,
      });
      const gate = progressGate();
      const started = Date.now();
      const load = sender.run(mix, 8, gate.onProgress);
      load.catch(() => undefined);

      await gate.reached(Math.floor(mix.notifications * 0.3));
      await running[0]!.kill('SIGKILL');
      t.log(`worker SIGKILLed after ${Date.now() - started} ms`);
      await new Promise((r) => setTimeout(r, 2000));
      running.push(await startSvc('worker', vars));

      await gate.reached(Math.floor(mix.notifications * 0.6));
      const inFlight = [...sender.notifications, ...sender.reports].filter((d) => !d.acknowledged).length;
      await running[1]!.kill('SIGKILL');
      t.log(`API SIGKILLed after ${Date.now() - started} ms with ${inFlight} sends unanswered`);
      await new Promise((r) => setTimeout(r, 1500));
      running.push(await startSvc('api', vars, port));

      await load;
      const left = await waitForStoreDrain(database.db, account.app_id, 60_000);
      t.deepEqual(left, { unnormalised: 0, waiting: 0 }, 'everything taken in was normalised and handed over');
      const figures = await assertStoreMixExact(t, database.db, account, mix, sender);
      t.true(
        (figures.statuses.notifications.network ?? 0) + (figures.statuses.reports.network ?? 0) > 0,
        'the API kill cut sends off (Apple or the app had to send again)',
      );
      t.log(
        `${SUBSCRIBERS} subscribers (${figures.sandbox} sandbox): ${figures.notifications} ` +
          `notifications, ${figures.events} events (${figures.paid} paid, ${figures.refunds} ` +
          `refunds, ${figures.restores} restored), ${figures.sends} sends ` +
          `in ${Math.round((Date.now() - started) / 1000)} s; answers ${JSON.stringify(figures.statuses)}`,
      );
    } catch (err) {
      for (const p of running) t.log(`svc ${p.role} (${p.child.pid}) log:\n${p.logTail(40)}`);
      throw err;
    } finally {
      await stopAll(running);
      await world.close();
      await database.drop();
    }
  },
);
