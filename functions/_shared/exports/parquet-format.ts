import { ByteWriter, type ColumnSource, ParquetWriter, type SchemaElement } from 'hyparquet-writer';
import type { ExportColumn, ExportMeta, ExportReading } from './export-format';

/**
 * A readings file in Apache Parquet (docs/open-data.md, docs/decisions/072-parquet-files.md), written by
 * hyparquet-writer (pure JavaScript, no binary): `timestamp` as INT64 TIMESTAMP_MILLIS adjusted to UTC, then a DOUBLE
 * column per measurement (null where a reading lacks it), named as the measurement, its unit in the file's key-value
 * metadata; with `raw` and `quality`, a `{name}_raw` DOUBLE and a `{name}_quality` STRING column beside each (the raw
 * value and the data-quality flag where a reading carries them). A row group holds one UTC day at most (and at most
 * ROW_GROUP_ROWS rows), so a reader that wants a range reads the footer and only the days it covers.
 */

/** The most rows one row group holds: a day of one reading a second is 86,400. */
export const ROW_GROUP_ROWS = 100_000;

const DAY_MS = 86_400_000;

/** A reading as a file writes it: its values, and where issue 39's readers give them, raw values and quality flags. */
export interface ParquetReading extends ExportReading {
  raw?: Record<string, number>;
  quality?: Record<string, string>;
}

export interface ParquetOptions {
  /** A `{name}_raw` column beside each measurement. */
  raw?: boolean;
  /** A `{name}_quality` column beside each measurement. */
  quality?: boolean;
}

/** The bytes written since the last take: hyparquet's writer, handing out what it wrote at each flush. */
class ChunkWriter extends ByteWriter {
  private taken: Uint8Array[] = [];
  constructor() {
    super(1 << 16);
  }
  flush() {
    this.taken.push(new Uint8Array(this.buffer.slice(0, this.index)));
    this.index = 0;
  }
  override finish() {
    this.flush();
  }
  /** Everything written since the last call. */
  take(): Uint8Array {
    if (this.index > 0) this.flush();
    const bytes = Buffer.concat(this.taken);
    this.taken = [];
    return bytes;
  }
}

const schemaOf = (columns: readonly ExportColumn[], options: ParquetOptions): SchemaElement[] => {
  const leaves: SchemaElement[] = [
    {
      name: 'timestamp',
      type: 'INT64',
      repetition_type: 'REQUIRED',
      converted_type: 'TIMESTAMP_MILLIS',
      logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
    },
  ];
  for (const { name } of columns) {
    leaves.push({ name, type: 'DOUBLE', repetition_type: 'OPTIONAL' });
    if (options.raw) leaves.push({ name: `${name}_raw`, type: 'DOUBLE', repetition_type: 'OPTIONAL' });
    if (options.quality) {
      leaves.push({
        name: `${name}_quality`,
        type: 'BYTE_ARRAY',
        repetition_type: 'OPTIONAL',
        converted_type: 'UTF8',
        logical_type: { type: 'STRING' },
      });
    }
  }
  return [{ name: 'root', num_children: leaves.length }, ...leaves];
};

/**
 * The Parquet counterpart of the CSV and JSON formatters (export-format.ts): `head`, `chunk` and `tail` answer the
 * file's bytes as they are made, so a year of readings streams through in row groups and is never held whole.
 */
export const createParquetFormatter = (meta: ExportMeta, options: ParquetOptions = {}) => {
  const names = meta.columns.map((column) => column.name);
  const writer = new ChunkWriter();
  const parquet = new ParquetWriter({
    writer,
    schema: schemaOf(meta.columns, options),
    createdBy: 'device-data-platform (hyparquet-writer)',
    kvMetadata: [
      { key: 'device_id', value: meta.deviceId },
      { key: 'device_name', value: meta.deviceName },
      { key: 'from', value: new Date(meta.from).toISOString() },
      { key: 'to', value: new Date(meta.to).toISOString() },
      { key: 'units', value: JSON.stringify(Object.fromEntries(meta.columns.map((c) => [c.name, c.unit ?? null]))) },
    ],
  });
  let rows = 0;
  let group: ParquetReading[] = [];
  let groupDay: number | undefined;

  const writeGroup = () => {
    if (group.length === 0) return;
    const columnData: ColumnSource[] = [
      {
        name: 'timestamp',
        data: BigInt64Array.from(group, (r) => BigInt(r.timestamp)),
        // PLAIN with Snappy rather than DELTA_BINARY_PACKED (smaller), which readers older than a few years refuse.
        encoding: 'PLAIN',
        columnIndex: true,
      },
    ];
    for (const name of names) {
      columnData.push({ name, data: group.map((r) => r.values[name] ?? null) });
      if (options.raw) columnData.push({ name: `${name}_raw`, data: group.map((r) => r.raw?.[name] ?? null) });
      if (options.quality)
        columnData.push({ name: `${name}_quality`, data: group.map((r) => r.quality?.[name] ?? null) });
    }
    parquet.write({ columnData, rowGroupSize: group.length });
    group = [];
  };

  return {
    get rows() {
      return rows;
    },
    head: (): Uint8Array => writer.take(),
    chunk: (readings: readonly ParquetReading[]): Uint8Array => {
      for (const reading of readings) {
        if (!names.some((name) => reading.values[name] !== undefined)) continue;
        const day = Math.floor(reading.timestamp / DAY_MS);
        if (group.length > 0 && (day !== groupDay || group.length >= ROW_GROUP_ROWS)) writeGroup();
        groupDay = day;
        group.push(reading);
        rows += 1;
      }
      return writer.take();
    },
    tail: (): Uint8Array => {
      writeGroup();
      parquet.finish();
      return writer.take();
    },
  };
};
