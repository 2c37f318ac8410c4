import { flatFileSource } from '../../flat-file-source.ts';
import { format } from './format.ts';

/** Recommended Removal report: every landed daily snapshot. */
export const source = flatFileSource(
  'GET_FBA_RECOMMENDED_REMOVAL_DATA',
  'raw.get_fba_recommended_removal_data',
  format,
);
