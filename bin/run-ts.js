#!/usr/bin/env node
// Runs a TypeScript entry file through tsx's loader: `node bin/run-ts.js FILE [ARGS...]`.
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

register();
const [file, ...rest] = process.argv.slice(2);
process.argv = [process.argv[0], resolve(file), ...rest];
await import(pathToFileURL(resolve(file)).href);
