import type { ActionGroup } from './define.ts';

export const adsActions: ActionGroup = {};
