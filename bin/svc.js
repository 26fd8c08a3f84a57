#!/usr/bin/env node
// Entry point of the `svc` command: loads the TypeScript sources through tsx (no build step to forget).
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// The project's tsconfig wherever the command runs from: the pages' JSX compiles with preact's runtime by it.
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('../cli/main.ts');
