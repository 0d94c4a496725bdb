import type { ExportFormat } from '../../../shared/contracts/sensor-data-exports';
import { createExportFormatter, type ExportMeta, type FileFormatter } from './export-format';
import { createParquetFormatter, type ParquetOptions } from './parquet-format';

/** The formatter of a file of readings in any export format: CSV and JSON as text, Parquet as bytes. */
export const createFileFormatter = (
  format: ExportFormat,
  meta: ExportMeta,
  // The download's extra columns (docs/data-quality.md) unless told otherwise, as CSV and JSON take them.
  options: ParquetOptions = meta.extras ?? {},
): FileFormatter =>
  format === 'parquet' ? createParquetFormatter(meta, options) : createExportFormatter(format, meta);
