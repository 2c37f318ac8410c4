import type { ActionGroup } from './define.ts';

export const mcfActions: ActionGroup = {};
