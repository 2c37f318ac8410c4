import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every document the code or the docs cite is in the tree: a maintainer who reads "docs/design/PROFIT.md §3" in a
 * comment can open it. Code names paths from the repository's root; a Markdown link resolves from its own file.
 */
const root = join(import.meta.dirname, '..', '..');
const scanned = ['src', 'test', 'bench', 'soak', 'models', 'pipelines', 'bin', 'docs', '.ci'];
const skipped = new Set(['node_modules', 'dist', 'fixtures', '.data']);

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (skipped.has(name)) return [];
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const files = [
  ...scanned.filter((dir) => existsSync(join(root, dir))).flatMap((dir) => filesUnder(join(root, dir))),
  ...readdirSync(root)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(root, name)),
].filter((path) => /\.(ts|js|sql|yml|md)$|\/run$/.test(path));

/** A path ending in `.md`, or one under `docs/` or `design/`, not part of a URL or of a longer name. */
const cited = /(?<![\w@.\/:-])((?:[\w.-]+\/)*[\w.-]+\.md|(?:docs|design)\/[\w.\/-]*[\w-])(?![\w\/-])/g;
/** A Markdown link's target that is not a URL or an anchor in the same page. */
const linked = /\]\((?!https?:|mailto:|#)([^)\s#]+)(?:#[^)]*)?\)/g;

/** The comments of a code file: a path in a string is data (a route, a file a test writes), not a citation. */
function commentsOf(path: string, text: string): string {
  if (path.endsWith('.sql')) return [...text.matchAll(/--(.*)$/gm)].map((m) => m[1]).join('\n');
  if (path.endsWith('.yml') || path.endsWith('/run'))
    return [...text.matchAll(/(?:^|\s)#(.*)$/gm)].map((m) => m[1]).join('\n');
  const blocks = [...text.matchAll(/\/\*[\s\S]*?\*\//g)].map((m) => m[0]);
  const lines = [...text.matchAll(/(?<![:'"`\\])\/\/(.*)$/gm)].map((m) => m[1]);
  return [...blocks, ...lines].join('\n');
}

function citations(path: string): { target: string; from: string[] }[] {
  const text = readFileSync(path, 'utf8');
  if (!path.endsWith('.md'))
    return [...commentsOf(path, text).matchAll(cited)].map((m) => ({ target: m[1]!, from: [root] }));
  const links = [...text.matchAll(linked)].map((m) => ({ target: m[1]!, from: [dirname(path)] }));
  // Prose names other projects' files too (a reference document's sources): a bare path is ours when it starts in
  // docs/ or design/, and may be read from the document's folder as well as from the root.
  const named = [...text.matchAll(cited)].filter((m) => /^(docs|design)\/.*\.md$/.test(m[1]!));
  return [...links, ...named.map((m) => ({ target: m[1]!, from: [root, dirname(path)] }))];
}

describe('the documents cited in code and docs', () => {
  it('are scanned in every place they can be cited from', () => {
    expect(files.some((path) => path.endsWith('README.md'))).toBe(true);
    expect(files.filter((path) => path.includes('/src/')).length).toBeGreaterThan(100);
  });

  it('all exist in the tree', () => {
    const missing = files.flatMap((path) =>
      citations(path)
        .filter((c) => !c.from.some((dir) => existsSync(join(dir, c.target))))
        .map((c) => `${relative(root, path)}: ${c.target}`),
    );
    expect([...new Set(missing)]).toEqual([]);
  });
});
