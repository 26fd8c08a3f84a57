// The one-owner rules of eslint.config.js (the config `npm run lint` runs), on planted sources: a handler that opens
// a transaction, writes raw SQL, queries a table inline or imports a db/ write module fails lint; the same
// transaction inside an action, and a type-only import of a write module, lint clean.
import test from 'ava';
import { lintPlanted } from '../helpers/lint-planted.js';

// Planted under the names of an existing dashboard handler and an existing action.
const HANDLER = 'api/dashboard/account/team.tsx';
const ACTION = 'actions/team.ts';

const transaction = `import type { Knex } from 'knex';
export async function handler(db: Knex) {
  await db.transaction(async (trx) => {
    await trx.table('organizations').where({ id: 'x' }).update({ name: 'y' });
  });
}
`;

test('a transaction planted in a handler fails lint; the same code in an action passes', async (t) => {
  const inHandler = await lintPlanted(HANDLER, transaction, 'no-restricted-syntax');
  t.is(inHandler.length, 1);
  t.regex(inHandler[0]!, /Transactions belong to actions\//);
  t.deepEqual(await lintPlanted(ACTION, transaction, 'no-restricted-syntax'), []);
});

test('raw SQL and inline table access in a handler fail lint', async (t) => {
  const raw = `import type { Knex } from 'knex';
export const count = (db: Knex) => db.raw('select count(*) from apps');
export const rows = (db: Knex) => db('apps').select('id');
`;
  const messages = await lintPlanted(HANDLER, raw, 'no-restricted-syntax');
  t.is(messages.length, 2);
  t.regex(messages[0]!, /SQL belongs to db\//);
  t.regex(messages[1]!, /Table access belongs to db\//);
});

test('a handler may import db/ read modules and write-module types, not write functions', async (t) => {
  const rule = '@typescript-eslint/no-restricted-imports';
  const write = `import { createApp } from '../../db/apps-writes.js';\nexport const f = createApp;\n`;
  const messages = await lintPlanted(HANDLER, write, rule);
  t.is(messages.length, 1);
  t.regex(messages[0]!, /only the read modules of db\//);
  const read = `import { findOrganization } from '../../db/organizations.js';\nexport const f = findOrganization;\n`;
  t.deepEqual(await lintPlanted(HANDLER, read, rule), []);
  const typeOnly =
    `import type { Knex } from 'knex';\nimport type * as writes from ` +
    `'../../db/apps-writes.js';\nexport type W = typeof writes;\nexport type K = Knex;\n`;
  t.deepEqual(await lintPlanted(HANDLER, typeOnly, rule), []);
  t.deepEqual(await lintPlanted(ACTION, write, rule), []);
});

test('a module of reads is importable by a handler; its writes, split into the -writes module, are not', async (t) => {
  const rule = '@typescript-eslint/no-restricted-imports';
  const write = `import { createConversion } from '../../db/conversions-writes.js';\nexport const f = createConversion;\n`;
  const messages = await lintPlanted(HANDLER, write, rule);
  t.is(messages.length, 1);
  t.regex(messages[0]!, /only the read modules of db\//);
  const read = `import { findOneTimeConversionKey } from '../../db/conversions.js';\nexport const f = findOneTimeConversionKey;\n`;
  t.deepEqual(await lintPlanted(HANDLER, read, rule), []);
});

test('a REST path in a lib/ text fails lint, in a plain string and in a template; a comment naming one does not', async (t) => {
  const texts = `// the caller answers POST /api/sdk/purchase
export const plain = 'report it (POST /api/sdk/purchase)';
export const built = (id: string) => \`see /api/agent/apps/\${id}\`;
export const fine = 'report it with reportPurchase';
`;
  const messages = await lintPlanted('lib/codes.ts', texts, 'no-restricted-syntax');
  t.is(messages.length, 2);
  for (const m of messages) t.regex(m, /lib\/ names no REST path/);
});
