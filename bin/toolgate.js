#!/usr/bin/env node
// The CLI is TypeScript run through tsx, so `npm install && npm start` needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
