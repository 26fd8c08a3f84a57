// What a running `svc dev` publishes under SVC_DATA_DIR so other commands (`svc seed`, `svc migrate`,
// `svc agent-key`) started in another terminal find its embedded database and Temporal without configuration.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isAlive } from './managed-child.js';
import { PROJECT_ROOT } from './temporal-binaries.js';

export interface DevState {
  pid: number;
  DATABASE_URL: string;
  TEMPORAL_ADDRESS: string;
  TEMPORAL_NAMESPACE: string;
  BASE_URL: string;
  DASHBOARD_URL: string;
  temporal_ui_url: string | null;
}

export function dataDirOf(svcDataDir: string): string {
  const dir = path.resolve(PROJECT_ROOT, svcDataDir);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  return dir;
}

const stateFile = (dir: string) => path.join(dir, 'dev.json');

export function writeDevState(dir: string, state: DevState): void {
  writeFileSync(stateFile(dir), JSON.stringify(state, null, 2), { mode: 0o600 });
}

export function clearDevState(dir: string): void {
  rmSync(stateFile(dir), { force: true });
}

/** The state of a live `svc dev` in this data directory, if one is running. */
export function readDevState(dir: string): DevState | undefined {
  if (!existsSync(stateFile(dir))) return undefined;
  const state = JSON.parse(readFileSync(stateFile(dir), 'utf8')) as DevState;
  return isAlive(state.pid) ? state : undefined;
}

/** The master key `svc dev` keeps for its data directory (generated once). */
export function devMasterKey(dir: string): string {
  const file = path.join(dir, 'master.key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

export function readJsonFile<T>(file: string): T | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
}

export function writeJsonFile(file: string, value: unknown): void {
  writeFileSync(file, JSON.stringify(value, null, 2), { mode: 0o600 });
}
