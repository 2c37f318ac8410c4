import { flatFileSource } from '../../flat-file.ts';
import { format } from './format.ts';

export const source = flatFileSource('GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2', 'raw.get_v2_settlement_report_data_flat_file_v2', format);
