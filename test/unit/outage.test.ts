// Which failures are outages (retry; an HTTP answer is 503), which are data the database refuses for good, and
// which are neither (a bug: bounded attempts, then the event is recorded as failed).
import test from 'ava';
import { isOutage, isTemporalUnavailable } from '../../errors/outage.js';
import { isRefusedData, isTransientDatabaseError } from '../../errors/pg-errors.js';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code, severity: 'ERROR' });
const grpcError = (code: number) => Object.assign(new Error(`${code} UNAVAILABLE: No connection established`), { code, metadata: {} });

const cases: [string, unknown, 'transient' | 'refused' | 'neither'][] = [
  ['connection refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), 'transient'],
  ['connection reset', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), 'transient'],
  ['server shutting down (57P01)', pgError('57P01', 'terminating connection due to administrator command'), 'transient'],
  ['server starting up (57P03)', pgError('57P03', 'the database system is starting up'), 'transient'],
  ['too many connections (53300)', pgError('53300'), 'transient'],
  ['serialization failure (40001)', pgError('40001'), 'transient'],
  ['deadlock (40P01)', pgError('40P01'), 'transient'],
  ['statement timeout (57014)', pgError('57014'), 'transient'],
  ['connection exception (08006)', pgError('08006'), 'transient'],
  ['pg: connection terminated', new Error('Connection terminated unexpectedly'), 'transient'],
  [
    'knex pool timeout',
    Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' }),
    'transient',
  ],
  ['wrapped in a cause', new Error('outer', { cause: pgError('57P01') }), 'transient'],
  ['unique violation (23505)', pgError('23505'), 'refused'],
  ['not null (23502)', pgError('23502'), 'refused'],
  ['malformed literal (22P02)', pgError('22P02'), 'refused'],
  ['raised by a function (P0001)', pgError('P0001', 'simulated bug'), 'neither'],
  ['undefined column (42703)', pgError('42703'), 'neither'],
  ['a TypeError', new TypeError('e.aliases is not iterable'), 'neither'],
  ['a RangeError', new RangeError('bigint exceeds the safe integer range'), 'neither'],
];
for (const [label, err, kind] of cases) {
  test(`${label}: ${kind}`, (t) => {
    t.is(isTransientDatabaseError(err), kind === 'transient');
    t.is(isRefusedData(err), kind === 'refused');
    t.is(isOutage(err), kind === 'transient');
  });
}

test('Temporal away: gRPC UNAVAILABLE and DEADLINE_EXCEEDED, also wrapped in a ServiceError, are outages; other failures are not', (t) => {
  t.true(isTemporalUnavailable(grpcError(14)));
  t.true(isTemporalUnavailable(grpcError(4)));
  t.true(isOutage(Object.assign(new Error('Update-With-Start failed'), { name: 'ServiceError', cause: grpcError(14) })));
  t.false(isTemporalUnavailable(Object.assign(new Error('not found'), { code: 5, metadata: {} })));
  t.false(isOutage(new Error('Workflow execution already completed')));
  t.false(isOutage(new TypeError('x is undefined')));
});
