import { publishCount } from './publish.ts';

/**
 * `read`'s answer, kept until this process publishes again, and at most `maxAgeMs` (another process's publish, a
 * scaled-out worker's, is seen that late): what depends only on the published state is not queried per request or
 * scrape. A read that fails is not kept.
 */
export function cachedPerPublish<T>(read: () => Promise<T>, maxAgeMs = 5_000): () => Promise<T> {
  let cached: { at: number; publishes: number; value: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    if (!cached || cached.publishes !== publishCount() || now - cached.at > maxAgeMs) {
      const value = read();
      cached = { at: now, publishes: publishCount(), value };
      value.catch(() => {
        if (cached?.value === value) cached = undefined;
      });
    }
    return cached.value;
  };
}
