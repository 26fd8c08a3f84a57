// The rooms say what they hold (docs/structure.md): lib/ is pure rules (no pages, no I/O, nothing from the layers
// that use it; errors/, below it, is allowed), and the structure drawing names every room that exists, so it cannot
// silently fall behind the code.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (p: string) => fs.readFileSync(path.join(root, p), 'utf8');
const entries = (dir: string) => fs.readdirSync(path.join(root, dir), { withFileTypes: true });

/** What a pure rule may not reach: our I/O layers, process plumbing, the web, and the packages that do I/O. */
const FORBIDDEN = [
  /^(\.\.\/)+(workflows|workflow-clients|clients|db|api|runtime|activities|actions|jobs|cli|worker)\//,
  /^node:(fs|fs\/promises|net|http|https|http2|child_process|dgram|dns|tls|worker_threads)$/,
  /^(fs|net|http|https|child_process)$/,
  /^(pg|knex|koa|@koa\/.*|ioredis|nodemailer|preact|preact-render-to-string|@temporalio\/(client|worker|activity))$/,
];
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

test('lib/ holds pure rules: no pages, and no import of I/O layers, runtime, the web or I/O packages', (t) => {
  // lib/ and its folders (lib/fraud-signals/): the `(../)+` of FORBIDDEN reaches the rooms from any depth.
  const files = fs.readdirSync(path.join(root, 'lib'), { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f));
  t.true(files.includes('fraud-signals/index.ts'), 'the walk reaches lib/ folders');
  t.deepEqual(
    files.filter((f) => f.endsWith('.tsx')),
    [],
    'pages and components live in api/view-kit/',
  );
  const offences = files.flatMap((f) =>
    [...read(`lib/${f}`).matchAll(SPECIFIER)]
      .map((m) => m[1]!)
      .filter((spec) => FORBIDDEN.some((re) => re.test(spec)))
      .map((spec) => `lib/${f} imports ${spec}`),
  );
  t.deepEqual(offences, []);
});

test('docs/structure.md names every room: each top-level code folder, each api/ surface and dashboard area', (t) => {
  const drawing = read('docs/structure.md');
  const code = (dir: string) =>
    entries(dir).some((e) => e.isFile() && /\.(ts|tsx)$/.test(e.name)) || entries(dir).some((e) => e.isDirectory());
  // Folders git tracks (not test-output/, .svc/ or other ignored output).
  const tracked = new Set(
    execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .map((f) => f.split('/')[0]),
  );
  const skip = new Set(['node_modules', 'docs', 'test', 'bench', 'bin', 'schema', 'packages', 'sdk-registry']);
  const rooms = [
    ...entries('.')
      .filter((e) => e.isDirectory() && tracked.has(e.name) && !skip.has(e.name) && code(e.name))
      .map((e) => `${e.name}/`),
    ...entries('api')
      .filter((e) => e.isDirectory())
      .map((e) => `api/${e.name}/`),
    ...entries('api/dashboard')
      .filter((e) => e.isDirectory())
      .map((e) => `api/dashboard/${e.name}/`),
  ];
  t.deepEqual(
    rooms.filter((room) => !drawing.includes(room)),
    [],
    'add the room to docs/structure.md',
  );
});
