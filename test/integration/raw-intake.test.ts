// Raw intake (db/raw-intake.ts): a verified item is kept once per (app, source, external id), concurrent
// redeliveries included, its first payload kept; the same external id from another source or app is another item.
import test from 'ava';
import { receiveRawItem } from '../../db/raw-intake.js';
import { countRows } from '../helpers/db.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false, api: false });

test('an item is kept once per (app, source, external id); a redelivery answers the first row and payload', async (t) => {
  const db = h().db;
  const item = { appId: seed.app_id, source: 'app_store_notification', externalId: 'uuid-1', payload: { signedPayload: 'first' } };
  const first = await receiveRawItem(db, item);
  t.true(first.inserted);
  t.is(first.row.normalised_at, null);
  const again = await receiveRawItem(db, { ...item, payload: { signedPayload: 'second' } });
  t.false(again.inserted);
  t.is(again.row.id, first.row.id);
  t.deepEqual(again.row.payload, { signedPayload: 'first' });
  const racing = await Promise.all(Array.from({ length: 8 }, () => receiveRawItem(db, { ...item, externalId: 'uuid-2' })));
  t.is(racing.filter((r) => r.inserted).length, 1);
  t.is(new Set(racing.map((r) => r.row.id)).size, 1);
  const other = await receiveRawItem(db, { ...item, source: 'play_rtdn' });
  t.true(other.inserted);
  t.is(await countRows(db('raw_intake').where('app_id', seed.app_id)), 3);
});

test('an item of an unknown app is refused by the database, nothing kept', async (t) => {
  const db = h().db;
  await t.throwsAsync(receiveRawItem(db, { appId: 'app_missing', source: 'play_rtdn', externalId: 'm-1', payload: {} }));
  t.is(await countRows(db('raw_intake').where('app_id', 'app_missing')), 0);
});
