#!/usr/bin/env node
// Entry point of the `svc` command: loads the TypeScript sources through tsx (no build step to forget).
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
