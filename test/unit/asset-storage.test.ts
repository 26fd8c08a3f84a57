// The local asset storage (clients/asset-storage.ts): keys are server-made and cannot leave the root.
import test from 'ava';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalDiskStorage, newAssetKey } from '../../clients/asset-storage.js';

test('put, get and remove under a server-made key; nothing else is left in the directory', async (t) => {
  const root = mkdtempSync(path.join(tmpdir(), 'svc-store-'));
  const storage = new LocalDiskStorage(root);
  const key = newAssetKey('app_123', 'png');
  t.regex(key, /^app_123\/[0-9a-f]{32}\.png$/);
  await storage.put(key, Buffer.from('data'));
  t.deepEqual(await storage.get(key), Buffer.from('data'));
  t.deepEqual(readdirSync(path.join(root, 'app_123')), [key.split('/')[1]], 'no temporary file remains');
  await storage.remove(key);
  t.is(await storage.get(key), undefined);
  await t.notThrowsAsync(storage.remove(key));
});

test('a key that could leave the root is refused', async (t) => {
  const storage = new LocalDiskStorage(mkdtempSync(path.join(tmpdir(), 'svc-store-')));
  for (const key of ['../etc/passwd', 'app/../../x.png', '/abs/x.png', 'app/x.png/../../y.png', 'app\\..\\x.png']) {
    await t.throwsAsync(storage.put(key, Buffer.from('x')), { message: /Not a storage key/ }, key);
  }
});
