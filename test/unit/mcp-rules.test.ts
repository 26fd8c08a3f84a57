// The tool server's pure rules: which browser origins may call /mcp, what counts against the tool-call limit, and
// how a registry error's `fields` are read.
import test from 'ava';
import { fieldProblemsOf } from '../../api/mcp/extra-tools.js';
import { isAllowedOrigin } from '../../api/mcp/origin.js';
import { countToolCalls, toolCallKey } from '../../api/mcp/rate-limit.js';
import type { AgentPrincipal } from '../../lib/principal.js';

const BASE = 'https://svc.example.com';
const origins: [string, string, boolean][] = [
  ['the BASE_URL origin', 'https://svc.example.com', true],
  ['BASE_URL host over plain http', 'http://svc.example.com', false],
  ['BASE_URL host on another port', 'https://svc.example.com:8443', false],
  ['a lookalike host', 'https://svc.example.com.evil.test', false],
  ['localhost, any port', 'http://localhost:6274', true],
  ['127.0.0.1', 'http://127.0.0.1:3000', true],
  ['elsewhere in 127.0.0.0/8', 'http://127.1.2.3', true],
  ['IPv6 loopback', 'http://[::1]:8080', true],
  ['https loopback', 'https://localhost', true],
  ['a foreign site', 'https://evil.example.com', false],
  ['a private-range address', 'http://192.168.1.10', false],
  ['the opaque origin', 'null', false],
  ['a file page', 'file://', false],
  ['a browser extension', 'chrome-extension://abcdef', false],
  ['a non-http loopback scheme', 'ws://localhost:1234', false],
  ['garbage', 'not a url', false],
];
for (const [label, origin, allowed] of origins) {
  test(`origin ${allowed ? 'allowed' : 'refused'}: ${label}`, (t) => t.is(isAllowedOrigin(origin, BASE), allowed));
}

test('only tools/call messages count against the limit, each one in a batch', (t) => {
  const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'svc_doctor' } };
  t.is(countToolCalls(call), 1);
  t.is(countToolCalls([call, call, { jsonrpc: '2.0', id: 3, method: 'tools/list' }]), 2);
  t.is(countToolCalls({ jsonrpc: '2.0', id: 1, method: 'initialize' }), 0);
  t.is(countToolCalls({ jsonrpc: '2.0', method: 'notifications/initialized' }), 0);
  t.is(countToolCalls(null), 0);
  t.is(countToolCalls([null, 'x', 3]), 0);
});

test('the limit belongs to the principal: one window per agent key, or per OAuth grant and client', (t) => {
  t.is(toolCallKey({ kind: 'agent', authMode: 'agent_key', id: 'agk_1', orgIds: ['o'], scopes: [] }), 'mcp-tools:agent_key:agk_1');
  t.not(toolCallKey({ kind: 'agent', authMode: 'oauth', id: 'agk_1', orgIds: ['o'], scopes: [] }), 'mcp-tools:agent_key:agk_1');
  const grant: AgentPrincipal = { kind: 'agent', authMode: 'oauth', id: 'grant_1', orgIds: ['o'], scopes: [] };
  t.is(toolCallKey({ ...grant, clientId: 'client_a' }), 'mcp-tools:oauth:grant_1:client_a');
  t.not(toolCallKey({ ...grant, clientId: 'client_a' }), toolCallKey({ ...grant, clientId: 'client_b' }));
});

test('a registry error is recognised by its fields, whatever its class; other errors are not field errors', (t) => {
  const err = Object.assign(new Error('bad'), {
    fields: [
      { loc: ['platform'], msg: 'unknown', type: 'enum' },
      { loc: 'x', msg: 3 },
    ],
  });
  t.deepEqual(fieldProblemsOf(err), [
    { loc: ['platform'], msg: 'unknown', type: 'enum' },
    { loc: [], msg: 'Invalid value', type: 'value_error' },
  ]);
  t.is(fieldProblemsOf(new Error('boom')), undefined);
  t.is(fieldProblemsOf({ fields: [] }), undefined, 'not an Error');
});
