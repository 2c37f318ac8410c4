#!/usr/bin/env node
// The `mktdata` command: the compiled sources in dist/ (`npm run build`; `npm install` and `npm pack` run it).
import { existsSync } from 'node:fs';

process.setSourceMapsEnabled(true);
const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  console.error('mktdata: not built yet (dist/ is missing): run `npm run build` in the project folder');
  process.exit(1);
}
await import(main.href);
