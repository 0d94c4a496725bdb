import type { ExportFormat } from '../../../shared/contracts/sensor-data-exports';
import { createExportFormatter, type ExportMeta, type FileFormatter } from './export-format';
import { createParquetFormatter, type ParquetOptions } from './parquet-format';

/** The formatter of a file of readings in any export format: CSV and JSON as text, Parquet as bytes. */
export const createFileFormatter = (
  format: ExportFormat,
  meta: ExportMeta,
  options: ParquetOptions = {},
): FileFormatter =>
  format === 'parquet' ? createParquetFormatter(meta, options) : createExportFormatter(format, meta);
