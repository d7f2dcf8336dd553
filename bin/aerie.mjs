#!/usr/bin/env node
// The `aerie` command. The apps are TypeScript run through tsx's loader, so there is no build step to forget.
import { register } from 'tsx/esm/api';

register();
await import('../apps/panel/src/cli/main.ts');
