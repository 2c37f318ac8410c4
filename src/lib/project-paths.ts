import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The folders mktdata ships beside its code (in a clone, and in the npm package: see package.json "files"). From
// src/lib/ and dist/lib/ alike, the project's root is two folders up.
const root = resolve(fileURLToPath(import.meta.url), '../../..');

/** The models: seeds/, staging/, intermediate/, marts/ and macros.sql. */
export const modelsDir = resolve(root, 'models');
/** The pipeline definitions. */
export const pipelinesDir = resolve(root, 'pipelines');
/** The frozen demo data `mktdata demo` lands. */
export const demoDir = resolve(root, 'fixtures/demo');
