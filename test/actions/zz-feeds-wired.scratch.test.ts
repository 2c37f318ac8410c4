import { vi } from 'vitest';
vi.mock('../../src/fake-marketplace/sp/action-operations.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/fake-marketplace/sp/action-operations.ts')>();
  const { feedRoutes } = await import('../../src/fake-marketplace/sp/feed-operations.ts');
  return { actionSpRoutes: () => [...original.actionSpRoutes(), ...feedRoutes()] };
});
await import('./feeds.test.ts');
