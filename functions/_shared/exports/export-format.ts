import type { ExportFormat } from '../../../shared/contracts/sensor-data-exports';
import { MEASUREMENTS, unitOf } from '../../../shared/sensor-data/measurements';

/** One column of an export: a measurement and the unit it is in (absent when neither catalogue nor device says). */
export interface ExportColumn {
  name: string;
  unit?: string;
}

export interface ExportReading {
  timestamp: number;
  values: Record<string, number>;
}

const CATALOGUE_ORDER = Object.keys(MEASUREMENTS);

/** Catalogue measurements in the catalogue's order, then the device's own names alphabetically. */
export const orderMeasurements = (names: Iterable<string>): string[] =>
  [...new Set(names)].sort((a, b) => {
    const ia = CATALOGUE_ORDER.indexOf(a);
    const ib = CATALOGUE_ORDER.indexOf(b);
    if (ia >= 0 && ib >= 0) return ia - ib;
    if (ia >= 0 || ib >= 0) return ia >= 0 ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  });

export const exportColumns = (names: readonly string[], declaredUnits?: Record<string, string>): ExportColumn[] =>
  names.map((name) => {
    const unit = unitOf(name, declaredUnits);
    return unit ? { name, unit } : { name };
  });

/** RFC 4180: a field holding a comma, quote or line break is quoted, its quotes doubled. */
export const csvField = (text: string): string => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  // IANA's registration of 2024.
  parquet: 'application/vnd.apache.parquet',
};

export interface ExportMeta {
  deviceId: string;
  deviceName: string;
  from: number;
  to: number;
  columns: ExportColumn[];
}

/**
 * Writes an export's text in pieces, so a year of readings streams through without being held: the head, then
 * each chunk of readings (oldest first), then the tail. A reading with none of the columns' measurements is no
 * row. CSV: `timestamp,iso_time,<name (unit)>…` with an empty cell where a reading lacks a measurement. JSON: one
 * document `{deviceId, deviceName, from, to, measurements: [{name, unit}], readings: [{timestamp, time, values}]}`.
 */
export const createExportFormatter = (format: 'csv' | 'json', meta: ExportMeta) => {
  const names = meta.columns.map((column) => column.name);
  let rows = 0;
  const present = (reading: ExportReading) => names.some((name) => reading.values[name] !== undefined);

  const csvRow = (reading: ExportReading) =>
    [
      String(reading.timestamp),
      new Date(reading.timestamp).toISOString(),
      ...names.map((name) => {
        const value = reading.values[name];
        return value === undefined ? '' : String(value);
      }),
    ].join(',');

  const jsonRow = (reading: ExportReading) => {
    const values: Record<string, number> = {};
    for (const name of names) if (reading.values[name] !== undefined) values[name] = reading.values[name]!;
    return JSON.stringify({ timestamp: reading.timestamp, time: new Date(reading.timestamp).toISOString(), values });
  };

  return {
    get rows() {
      return rows;
    },
    head: (): string =>
      format === 'csv'
        ? `${['timestamp', 'iso_time', ...meta.columns.map((c) => csvField(c.unit ? `${c.name} (${c.unit})` : c.name))].join(',')}\r\n`
        : `{"deviceId":${JSON.stringify(meta.deviceId)},"deviceName":${JSON.stringify(meta.deviceName)},` +
          `"from":${meta.from},"to":${meta.to},"measurements":${JSON.stringify(meta.columns)},"readings":[`,
    chunk: (readings: readonly ExportReading[]): string => {
      let text = '';
      for (const reading of readings) {
        if (!present(reading)) continue;
        text += format === 'csv' ? `${csvRow(reading)}\r\n` : `${rows === 0 ? '\n' : ',\n'}${jsonRow(reading)}`;
        rows += 1;
      }
      return text;
    },
    tail: (): string => (format === 'csv' ? '' : `${rows === 0 ? '' : '\n'}]}\n`),
  };
};

/** A file's formatter, text or binary: its head, each chunk of readings and its tail, and the rows it wrote. */
export interface FileFormatter {
  readonly rows: number;
  head: () => string | Uint8Array;
  chunk: (readings: readonly ExportReading[]) => string | Uint8Array;
  tail: () => string | Uint8Array;
}

export type ExportFormatter = FileFormatter;
