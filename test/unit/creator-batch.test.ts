// The batch invitation textarea (lib/creator-batch.ts) and the asset type check by content (api/dashboard/assets/asset-upload.ts).
import test from 'ava';
import { sniffAsset } from '../../api/dashboard/assets/asset-upload.js';
import { parseCreatorBatch } from '../../lib/creator-batch.js';
import { ValidationError } from '../../errors/http-errors.js';

test('lines become creators: header and comments skipped, commas, semicolons or tabs, quotes dropped', (t) => {
  t.deepEqual(parseCreatorBatch('email,name,lang\n# team\n a@x.io , "Ann", es \r\nb@x.io;Bob\nc@x.io\tCy\tde\n\n', 100, 'Hi'), [
    { email: 'a@x.io', name: 'Ann', lang: 'es', message: 'Hi' },
    { email: 'b@x.io', name: 'Bob', message: 'Hi' },
    { email: 'c@x.io', name: 'Cy', lang: 'de', message: 'Hi' },
  ]);
  t.deepEqual(parseCreatorBatch('not-an-email', 100), [{ email: 'not-an-email' }], 'addresses are checked per item by the invite handler');
});

test('an empty list or more lines than the limit is a 422 naming creators', (t) => {
  for (const [text, msg] of [
    ['\n# nothing\n', /at least one/],
    ['a@x.io\nb@x.io\nc@x.io', /At most 2 creators per batch; this list has 3/],
  ] as const) {
    const err = t.throws(() => parseCreatorBatch(text, 2), { instanceOf: ValidationError });
    t.deepEqual(err.problems[0]!.loc, ['body', 'creators']);
    t.regex(err.problems[0]!.msg, msg);
  }
});

test('asset types are judged by their first bytes, never by name or declared type', (t) => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);
  t.like(sniffAsset(png), { mime: 'image/png', ext: 'png' });
  t.like(sniffAsset(Buffer.from([0xff, 0xd8, 0xff, 0xe0])), { mime: 'image/jpeg' });
  t.like(sniffAsset(Buffer.from('GIF89a....')), { mime: 'image/gif' });
  t.like(sniffAsset(Buffer.from('RIFF\0\0\0\0WEBPVP8 ')), { mime: 'image/webp' });
  t.like(sniffAsset(Buffer.from('%PDF-1.7\n')), { mime: 'application/pdf', type: 'document' });
  t.like(sniffAsset(Buffer.from('\0\0\0\x18ftypmp42')), { mime: 'video/mp4', type: 'video' });
  for (const bad of ['<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>', '<!doctype html><script>', '', 'PK\x03\x04'])
    t.is(sniffAsset(Buffer.from(bad)), undefined, bad);
});
