import { reportFetch } from '../../fetch-spec.ts';
import { flatFileSource } from '../../flat-file-source.ts';
import { format } from './format.ts';
import type { Source } from '../../source.ts';

/** Recommended Removal report: every landed daily snapshot. */
export const source: Source = {
  ...flatFileSource('GET_FBA_RECOMMENDED_REMOVAL_DATA', 'raw.get_fba_recommended_removal_data', format),
  fetch: reportFetch('GET_FBA_RECOMMENDED_REMOVAL_DATA', 'none'),
};
