#!/usr/bin/env node
// Entry point of the `svc` command: loads the TypeScript sources through tsx (no build step to forget) and runs them
// on the project's pinned Node (runtime/pinned-node.ts: started by another node, it re-runs itself on that one; the
// re-run starts at this file again, so it registers tsx the same way).
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// The project's tsconfig wherever the command runs from: the pages' JSX compiles with preact's runtime by it.
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { ensurePinnedNode } = await import('../runtime/pinned-node.ts');
await ensurePinnedNode();
await import('../cli/main.ts');
