import type { ActionGroup } from './define.ts';

export const ordersActions: ActionGroup = {};
