// The tool server's tools with no account endpoint and the `svc://sdk/{platform}` resource, from the SDK registry.
import { REGISTRY_TOOLS, RegistryInputError, sdkResource } from '../../sdk-registry/tools.js';
import type { ExtraTool } from './extra-tools.js';
import type { SdkResourceReader } from './resources.js';

export const registryTools: readonly ExtraTool[] = REGISTRY_TOOLS;

/** An unknown platform reads as "no such resource", not as an error of the server. */
export const readSdkResource: SdkResourceReader = (platform) => {
  try {
    return sdkResource(platform);
  } catch (err) {
    if (err instanceof RegistryInputError) return undefined;
    throw err;
  }
};
