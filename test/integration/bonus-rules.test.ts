// Milestone bonus rules as a campaign field (CONTRACT.md "Milestone bonus rules"), over HTTP: set at creation, by
// the agent's PATCH and by the dashboard REST; read with ids in every campaign answer; every bad shape is 422 naming
// `bonus_rules` with nothing written; a PATCH replaces the list matched by threshold (same threshold: same rule
// updated; gone: deactivated, never deleted; new: inserted; back again: the old rule revived).
import test from 'ava';
import { openApiDocument } from '../../api/agent/openapi.js';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { SCOPES } from '../../lib/scopes.js';
import { signInDashboard, sessionCall } from '../helpers/dashboard.js';
import { request } from '../helpers/http.js';
import { seedApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });

interface Rule {
  id: string;
  threshold_conversions: number;
  bonus_usd: number;
  name: string;
}

async function account() {
  const app = await seedApp(h().db);
  const key = await createAgentKey(h().db, { orgId: app.org_id, name: 'test', scopes: SCOPES });
  const agent = (method: string, p: string, body?: unknown) => request(h().baseUrl, method, `/api/agent${p}`, { token: key.key, body });
  return { ...app, agent };
}

const shape = (rules: Rule[]) => rules.map((r) => [r.threshold_conversions, r.bonus_usd, r.name]);
const rows = (campaignId: string) =>
  h()
    .db('bonus_rules')
    .where('campaign_id', campaignId)
    .orderBy('created_at')
    .select('id', 'threshold_conversions', 'bonus_micros', 'name', 'active');

test('rules set at creation are read with their ids in every campaign answer (create, get, list, status); the name defaults', async (t) => {
  const a = await account();
  const created = await a.agent('POST', `/apps/${a.app_id}/campaigns`, {
    name: 'Milestones',
    commission_percentage: 20,
    bonus_rules: [
      { threshold_conversions: 10, bonus_usd: 50 },
      { threshold_conversions: 3, bonus_usd: 19.99, name: 'Bronze' },
    ],
  });
  t.is(created.status, 201, created.text);
  t.deepEqual(shape(created.body.bonus_rules), [
    [3, 19.99, 'Bronze'],
    [10, 50, '10 conversions bonus'],
  ]);
  for (const r of created.body.bonus_rules as Rule[]) t.regex(r.id, /^bnr_/);
  t.deepEqual(
    (await rows(created.body.id)).map((r) => Number(r.bonus_micros)),
    [50_000_000, 19_990_000],
  );

  const id = created.body.id as string;
  t.deepEqual((await a.agent('GET', `/campaigns/${id}`)).body.bonus_rules, created.body.bonus_rules);
  const listed = (await a.agent('GET', `/campaigns?app_id=${a.app_id}`)).body.campaigns as { id: string; bonus_rules: Rule[] }[];
  t.deepEqual(listed.find((c) => c.id === id)?.bonus_rules, created.body.bonus_rules);
  t.deepEqual(listed.find((c) => c.id === a.campaign_id)?.bonus_rules, [], 'a campaign without rules answers an empty list');
  t.deepEqual((await a.agent('POST', `/campaigns/${id}/status`, { status: 'paused' })).body.bonus_rules, created.body.bonus_rules);
  t.deepEqual(
    (await a.agent('PATCH', `/campaigns/${id}`, { name: 'Renamed' })).body.bonus_rules,
    created.body.bonus_rules,
    'a PATCH without the field keeps the rules',
  );
});

const BAD: [string, unknown][] = [
  ['not a list', { threshold_conversions: 1, bonus_usd: 1 }],
  ['null', null],
  ['a number item', [5]],
  ['11 rules', Array.from({ length: 11 }, (_, i) => ({ threshold_conversions: i + 1, bonus_usd: 1 }))],
  [
    'repeated thresholds',
    [
      { threshold_conversions: 5, bonus_usd: 1 },
      { threshold_conversions: 5, bonus_usd: 2 },
    ],
  ],
  ['threshold 0', [{ threshold_conversions: 0, bonus_usd: 1 }]],
  ['negative threshold', [{ threshold_conversions: -1, bonus_usd: 1 }]],
  ['fractional threshold', [{ threshold_conversions: 1.5, bonus_usd: 1 }]],
  ['threshold as text', [{ threshold_conversions: '3', bonus_usd: 1 }]],
  ['no threshold', [{ bonus_usd: 1 }]],
  ['bonus 0', [{ threshold_conversions: 1, bonus_usd: 0 }]],
  ['negative bonus', [{ threshold_conversions: 1, bonus_usd: -5 }]],
  ['bonus over 100,000', [{ threshold_conversions: 1, bonus_usd: 100_000.01 }]],
  ['three decimals', [{ threshold_conversions: 1, bonus_usd: 10.001 }]],
  ['a quarter of 39.99: four decimals', [{ threshold_conversions: 1, bonus_usd: 9.9975 }]],
  ['a fraction of a micro above whole cents (refused, never rounded)', [{ threshold_conversions: 1, bonus_usd: 10.0000001 }]],
  ['bonus as text', [{ threshold_conversions: 1, bonus_usd: '10' }]],
  ['no bonus', [{ threshold_conversions: 1 }]],
  ['empty name', [{ threshold_conversions: 1, bonus_usd: 1, name: '' }]],
  ['blank name', [{ threshold_conversions: 1, bonus_usd: 1, name: '   ' }]],
  ['numeric name', [{ threshold_conversions: 1, bonus_usd: 1, name: 5 }]],
  ['an unknown field', [{ threshold_conversions: 1, bonus_usd: 1, bonus_percent: 5 }]],
];

test('every bad shape is 422 naming bonus_rules, at creation and by PATCH; nothing is half-written', async (t) => {
  const a = await account();
  const keep = [{ threshold_conversions: 2, bonus_usd: 10, name: 'Two' }];
  const base = await a.agent('POST', `/apps/${a.app_id}/campaigns`, { name: 'Base', commission_percentage: 20, bonus_rules: keep });
  t.is(base.status, 201, base.text);
  const before = await rows(base.body.id);
  for (const [label, bad] of BAD) {
    const created = await a.agent('POST', `/apps/${a.app_id}/campaigns`, {
      name: `Bad ${label}`,
      commission_percentage: 20,
      bonus_rules: bad,
    });
    t.is(created.status, 422, `${label}: ${created.text}`);
    t.true(JSON.stringify(created.body.detail).includes('bonus_rules'), `${label}: ${created.text}`);
    const patched = await a.agent('PATCH', `/campaigns/${base.body.id}`, { name: 'Changed', bonus_rules: bad });
    t.is(patched.status, 422, `${label}: ${patched.text}`);
    t.true(JSON.stringify(patched.body.detail).includes('bonus_rules'), `${label}: ${patched.text}`);
  }
  t.is(await h().db('campaigns').where('app_id', a.app_id).where('name', 'like', 'Bad %').first(), undefined, 'no campaign half-created');
  t.deepEqual(await rows(base.body.id), before, 'the rules are untouched');
  t.is(
    (await a.agent('GET', `/campaigns/${base.body.id}`)).body.name,
    'Base',
    'the other fields of a refused PATCH are not written either',
  );

  const edges = await a.agent('PATCH', `/campaigns/${base.body.id}`, {
    bonus_rules: [
      { threshold_conversions: 1, bonus_usd: 0.01 },
      { threshold_conversions: 1_000_000, bonus_usd: 100_000 },
    ],
  });
  t.is(edges.status, 200, edges.text);
  t.deepEqual(shape(edges.body.bonus_rules), [
    [1, 0.01, '1 conversions bonus'],
    [1_000_000, 100_000, '1000000 conversions bonus'],
  ]);
});

test(
  'a PATCH replaces the list by threshold: updated in place (same id), dropped ones ' +
    'deactivated (never deleted), new ones inserted, a returning threshold revives its rule',
  async (t) => {
    const a = await account();
    const created = await a.agent('POST', `/apps/${a.app_id}/campaigns`, {
      name: 'Ladder',
      commission_percentage: 20,
      bonus_rules: [
        { threshold_conversions: 1, bonus_usd: 10 },
        { threshold_conversions: 5, bonus_usd: 20 },
        { threshold_conversions: 10, bonus_usd: 30 },
      ],
    });
    const id = created.body.id as string;
    const idOf = (rules: Rule[], threshold: number) => rules.find((r) => r.threshold_conversions === threshold)?.id;
    const first = created.body.bonus_rules as Rule[];

    const second = await a.agent('PATCH', `/campaigns/${id}`, {
      bonus_rules: [
        { threshold_conversions: 20, bonus_usd: 100 },
        { threshold_conversions: 1, bonus_usd: 15, name: 'First sale' },
        { threshold_conversions: 10, bonus_usd: 30 },
      ],
    });
    t.is(second.status, 200, second.text);
    const rules = second.body.bonus_rules as Rule[];
    t.deepEqual(shape(rules), [
      [1, 15, 'First sale'],
      [10, 30, '10 conversions bonus'],
      [20, 100, '20 conversions bonus'],
    ]);
    t.is(idOf(rules, 1), idOf(first, 1), 'same threshold: the same rule, updated');
    t.is(idOf(rules, 10), idOf(first, 10));
    t.false(
      first.some((r) => r.id === idOf(rules, 20)),
      'a new threshold is a new rule',
    );
    const dropped = await h().db('bonus_rules').where('id', idOf(first, 5)).first();
    t.like(
      dropped,
      { active: false, threshold_conversions: 5, bonus_micros: 20_000_000 },
      'a dropped threshold is deactivated, not deleted',
    );

    const third = await a.agent('PATCH', `/campaigns/${id}`, { bonus_rules: [{ threshold_conversions: 5, bonus_usd: 25 }] });
    t.deepEqual(shape(third.body.bonus_rules), [[5, 25, '5 conversions bonus']]);
    t.is(idOf(third.body.bonus_rules, 5), idOf(first, 5), 'a threshold that comes back revives its old rule, so nobody earns it twice');

    const cleared = await a.agent('PATCH', `/campaigns/${id}`, { bonus_rules: [] });
    t.deepEqual(cleared.body.bonus_rules, []);
    const all = await rows(id);
    t.is(all.length, 4, 'every rule ever saved is still there');
    t.true(all.every((r) => !r.active));
  },
);

test('the dashboard REST sets and validates bonus_rules with the same handler; the OpenAPI document describes the field', async (t) => {
  const session = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
  const path = `/api/campaigns/${seed.campaign_id}`;
  const saved = await sessionCall(h().baseUrl, session, 'PATCH', path, {
    bonus_rules: [{ threshold_conversions: 4, bonus_usd: 12.5, name: 'Four' }],
  });
  t.is(saved.status, 200, saved.text);
  t.deepEqual(shape(saved.body.bonus_rules), [[4, 12.5, 'Four']]);
  t.deepEqual((await sessionCall(h().baseUrl, session, 'GET', path)).body.bonus_rules, saved.body.bonus_rules);
  const bad = await sessionCall(h().baseUrl, session, 'PATCH', path, {
    bonus_rules: [
      { threshold_conversions: 4, bonus_usd: 1 },
      { threshold_conversions: 4, bonus_usd: 2 },
    ],
  });
  t.is(bad.status, 422);
  t.true(JSON.stringify(bad.body.detail).includes('bonus_rules'));
  const subCent = await sessionCall(h().baseUrl, session, 'PATCH', path, {
    bonus_rules: [{ threshold_conversions: 4, bonus_usd: 9.9975 }],
  });
  t.is(subCent.status, 422, subCent.text);
  t.regex(JSON.stringify(subCent.body.detail), /bonus_rules.*bonus_usd.*whole cents/);
  t.deepEqual((await sessionCall(h().baseUrl, session, 'GET', path)).body.bonus_rules, saved.body.bonus_rules, 'nothing written');
  await sessionCall(h().baseUrl, session, 'PATCH', path, { bonus_rules: [] });

  const doc = openApiDocument(h().baseUrl) as { paths: Record<string, Record<string, any>> };
  for (const [p, method] of [
    ['/campaigns/{campaign_id}', 'patch'],
    ['/apps/{app_id}/campaigns', 'post'],
  ] as const) {
    const schema = doc.paths[p]![method].requestBody.content['application/json'].schema;
    t.like(schema.properties.bonus_rules, { type: 'array', maxItems: 10 });
    t.regex(schema.properties.bonus_rules.description, /deactivated/);
  }
  const review = doc.paths['/bonus-awards/{award_id}/review']!.post.requestBody.content['application/json'].schema;
  t.regex(review.properties.decision.description, /void.*approved/s);
});
