import type { ActionGroup } from './define.ts';

export const aplusActions: ActionGroup = {};
