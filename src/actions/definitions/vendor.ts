import type { ActionGroup } from './define.ts';

export const vendorActions: ActionGroup = {};
