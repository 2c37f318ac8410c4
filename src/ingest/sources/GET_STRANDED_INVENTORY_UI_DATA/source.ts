import { reportFetch } from '../../fetch-spec.ts';
import { flatFileSource } from '../../flat-file-source.ts';
import { format } from './format.ts';
import type { Source } from '../../source.ts';

/** Stranded Inventory report: every landed snapshot; the latest file of a connection is the current state. */
export const source: Source = {
  ...flatFileSource('GET_STRANDED_INVENTORY_UI_DATA', 'raw.get_stranded_inventory_ui_data', format),
  fetch: reportFetch('GET_STRANDED_INVENTORY_UI_DATA', 'none'),
};
