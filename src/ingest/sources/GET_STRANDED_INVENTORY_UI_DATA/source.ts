import { flatFileSource } from '../../flat-file-source.ts';
import { format } from './format.ts';

/** Stranded Inventory report: every landed snapshot; the latest file of a connection is the current state. */
export const source = flatFileSource('GET_STRANDED_INVENTORY_UI_DATA', 'raw.get_stranded_inventory_ui_data', format);
