import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { copyInto, type CopiedFile } from './copy-file.ts';

/** A file's identity while it is not written: its inode, size and modification time (null when it is gone). */
function stampOf(file: string): string | null {
  try {
    const { ino, size, mtimeMs } = statSync(file);
    return `${ino}/${size}/${mtimeMs}`;
  } catch {
    return null;
  }
}

/**
 * Files of a home copied before the backup's turn as the home's writer, so that the writer's turn is short: files
 * that are replaced by a rename and not written in place while they are current (the landed documents, the published
 * snapshot and its manifest). In the writer's turn each is kept only when the home's file is still the one copied,
 * and copied again otherwise.
 */
export class EarlyCopies {
  readonly #copies = new Map<string, { copied: CopiedFile; stamp: string }>();

  constructor(
    private readonly fromRoot: string,
    private readonly toRoot: string,
  ) {}

  /** Copies `path` now; a copy during which the file changed or went away is not kept. */
  async take(path: string): Promise<void> {
    const before = stampOf(join(this.fromRoot, path));
    if (!before) return;
    try {
      const copied = await copyInto(this.fromRoot, this.toRoot, path);
      if (stampOf(join(this.fromRoot, path)) === before) return void this.#copies.set(path, { copied, stamp: before });
    } catch {
      // Gone meanwhile (`connections remove --purge`), or a failure that recurs in the writer's turn.
    }
    rmSync(join(this.toRoot, path), { force: true });
  }

  /** In the writer's turn: the early copy of `path` when the home's file is still the one copied, else a new copy. */
  async current(path: string): Promise<CopiedFile> {
    const early = this.#copies.get(path);
    this.#copies.delete(path);
    if (early && stampOf(join(this.fromRoot, path)) === early.stamp) return early.copied;
    rmSync(join(this.toRoot, path), { force: true });
    return copyInto(this.fromRoot, this.toRoot, path);
  }

  /** Removes the early copies of files that are gone since (`current` was not asked for them). */
  dropRest(): void {
    for (const path of this.#copies.keys()) rmSync(join(this.toRoot, path), { force: true });
    this.#copies.clear();
  }
}
