#!/usr/bin/env node
// Entry point of the `svc` command: loads the TypeScript sources through tsx (no build step to forget) and runs them
// on the project's pinned Node (runtime/pinned-node.ts: started by another node, it re-runs itself on that one).
import { register } from 'tsx/esm/api';

register();
const { ensurePinnedNode } = await import('../runtime/pinned-node.ts');
await ensurePinnedNode();
await import('../cli/main.ts');
