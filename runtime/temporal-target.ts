// Where Temporal is and how to reach it, read the SDK's standard way (@temporalio/envconfig): TEMPORAL_ADDRESS,
// TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, the TEMPORAL_TLS* variables, and a TOML profile file (TEMPORAL_CONFIG_FILE,
// else ~/.config/temporalio/temporal.toml; TEMPORAL_PROFILE picks the profile, else "default"). Environment
// variables override the profile. So `svc api` and `svc worker` reach a self-hosted cluster or Temporal Cloud with
// no code change, and `svc dev` starts its own dev server only when neither gives an address.
import { loadClientConnectConfig } from '@temporalio/envconfig';
import { existsSync } from 'node:fs';
import type { Config } from './config.js';
import { ConfigError } from './config.js';

/** What a connection needs beyond the address: TLS (mTLS or server CA), an API key, gRPC metadata. */
export interface TemporalConnectExtras {
  tls?: NonNullable<ReturnType<typeof loadClientConnectConfig>['connectionOptions']['tls']>;
  apiKey?: string;
  metadata?: Record<string, string>;
}

export interface TemporalTarget {
  /** Undefined when neither the environment nor a profile names one (`svc dev` then starts the dev server). */
  address?: string;
  /** Undefined when neither names one (the configuration's TEMPORAL_NAMESPACE default applies). */
  namespace?: string;
  extras: TemporalConnectExtras;
  /** Where the address came from, for the start banner and logs (never the key itself). */
  source: 'environment' | 'profile' | 'none';
}

export function resolveTemporalTarget(env: NodeJS.ProcessEnv = process.env): TemporalTarget {
  const vars = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
  if (vars.TEMPORAL_CONFIG_FILE && !existsSync(vars.TEMPORAL_CONFIG_FILE)) {
    throw new ConfigError(
      ['TEMPORAL_CONFIG_FILE'],
      `Invalid configuration: TEMPORAL_CONFIG_FILE ${vars.TEMPORAL_CONFIG_FILE} does not exist`,
    );
  }
  let loaded: ReturnType<typeof loadClientConnectConfig>;
  try {
    loaded = loadClientConnectConfig({ overrideEnvVars: vars });
  } catch (err) {
    // A named profile that is not in the file, or a file that is not TOML: say which variable to look at.
    throw new ConfigError(
      ['TEMPORAL_PROFILE'],
      `Invalid configuration: TEMPORAL_PROFILE / TEMPORAL_CONFIG_FILE: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const { address, tls, apiKey, metadata } = loaded.connectionOptions;
  const extras: TemporalConnectExtras = {};
  if (tls !== undefined && tls !== null) extras.tls = tls;
  if (apiKey !== undefined && typeof apiKey === 'string') extras.apiKey = apiKey;
  if (metadata && Object.keys(metadata).length > 0) extras.metadata = metadata as Record<string, string>;
  return {
    ...(address ? { address } : {}),
    ...(loaded.namespace ? { namespace: loaded.namespace } : {}),
    extras,
    source: vars.TEMPORAL_ADDRESS ? 'environment' : address ? 'profile' : 'none',
  };
}

/**
 * The configuration with Temporal's address and namespace filled from the profile where the environment gives
 * none (an address the configuration already has, such as a running `svc dev`'s, is kept), plus the extras.
 */
export function withTemporalTarget(config: Config, env: NodeJS.ProcessEnv = process.env): { config: Config; temporal: TemporalTarget } {
  const temporal = resolveTemporalTarget(env);
  const address = config.TEMPORAL_ADDRESS ?? temporal.address;
  return {
    config: {
      ...config,
      ...(address ? { TEMPORAL_ADDRESS: address } : {}),
      TEMPORAL_NAMESPACE: temporal.namespace ?? config.TEMPORAL_NAMESPACE,
    },
    temporal,
  };
}
