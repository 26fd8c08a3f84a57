// The agent API's contract as served, kept as a golden copy: the OpenAPI document of GET /api/agent/openapi.json
// (api/agent/routes.ts serves openApiDocument) and the MCP tool list of tools/list (api/mcp/server.ts answers
// buildToolCatalog(registryTools).definitions, as api/app.ts mounts it), built here by the same functions, compared
// with test/golden/openapi.json and test/golden/mcp-tools.json. A refactor must leave both identical; a change
// of a route, field, description or schema fails here until the copy is refreshed on purpose:
//   UPDATE_GOLDEN=1 npm test -- test/unit/golden-contract.test.ts
// rewrites both files from the code (then review and commit the diff with the change that made it).
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '../../api/agent/openapi.js';
import { registryTools } from '../../api/mcp/registry.js';
import { buildToolCatalog } from '../../api/mcp/tool-catalog.js';

/** The base URL the golden document is built for (the document names it in `servers`). */
const BASE_URL = 'https://svc.example.com';
const REFRESH = 'UPDATE_GOLDEN=1 npm test -- test/unit/golden-contract.test.ts';

/** As a client receives it: JSON on the wire (undefined fields dropped). */
const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const golden: { name: string; file: string; build: () => unknown }[] = [
  { name: 'the OpenAPI document', file: 'openapi.json', build: () => openApiDocument(BASE_URL) },
  { name: 'the MCP tool list', file: 'mcp-tools.json', build: () => ({ tools: buildToolCatalog(registryTools).definitions }) },
];

for (const { name, file, build } of golden) {
  test(`${name} is the golden copy (test/golden/${file})`, (t) => {
    const path = fileURLToPath(new URL(`../golden/${file}`, import.meta.url));
    const built = wire(build());
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, `${JSON.stringify(built, null, 2)}\n`);
    const kept = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    t.deepEqual(built, kept, `${name} changed. If on purpose, refresh the golden copy with \`${REFRESH}\` and commit it.`);
  });
}
