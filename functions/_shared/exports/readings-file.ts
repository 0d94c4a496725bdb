import { createHash } from 'node:crypto';
import type { TimeRange } from '../../../shared/campaigns/window';
import type { FileWriter } from './export-files';
import type { ExportReading, FileFormatter } from './export-format';

/** What streams a device's readings in a range, oldest first, in chunks (the readings store's `scan`). */
export type ReadingsScan = (deviceId: string, range: TimeRange) => AsyncIterable<readonly ExportReading[]>;

/** One file written from the readings: its formatter (CSV or JSON) and where its text goes. */
export interface ReadingsOutput {
  formatter: FileFormatter;
  file: FileWriter;
}

/** One written file: its rows, size, SHA-256 (hex, of exactly the bytes stored) and object version. */
export interface ReadingsFileResult {
  rows: number;
  bytes: number;
  sha256: string;
  versionId?: string;
}

/** The measurement names found in a device's readings over `parts`: for a device record that lists none (seeded data). */
export const measurementsIn = async (
  scan: ReadingsScan,
  deviceId: string,
  parts: readonly TimeRange[],
): Promise<Set<string>> => {
  const names = new Set<string>();
  for (const part of parts) {
    for await (const chunk of scan(deviceId, part)) {
      for (const reading of chunk) for (const name of Object.keys(reading.values)) names.add(name);
    }
  }
  return names;
};

/** Milliseconds of time covered by parts (both ends included): the unit of progress. */
export const spanOf = (parts: readonly TimeRange[]) => parts.reduce((sum, part) => sum + part.to - part.from + 1, 0);

/**
 * Streams one device's readings over `parts` (each oldest first) into every output at once, so one read of the
 * readings writes a CSV and a JSON file side by side (datasets) or a single file (downloads). Each output is hashed as
 * it is written, so a checksum costs no second read of the object. `onProgress` hears how much of the parts' time
 * has been read after each chunk. On any failure every file is aborted (an unfinished upload keeps no parts) and
 * the error thrown back.
 */
export const writeReadingsFiles = async ({
  deviceId,
  parts,
  scan,
  outputs,
  onProgress,
}: {
  deviceId: string;
  parts: readonly TimeRange[];
  scan: ReadingsScan;
  outputs: readonly ReadingsOutput[];
  onProgress?: (doneMs: number, totalMs: number) => Promise<void>;
}): Promise<ReadingsFileResult[]> => {
  const hashes = outputs.map(() => createHash('sha256'));
  const write = async (index: number, chunk: string | Uint8Array) => {
    if (chunk.length === 0) return;
    if (typeof chunk === 'string') hashes[index]!.update(chunk, 'utf8');
    else hashes[index]!.update(chunk);
    await outputs[index]!.file.write(chunk);
  };
  try {
    for (const [i, output] of outputs.entries()) await write(i, output.formatter.head());
    const total = spanOf(parts);
    let done = 0;
    for (const part of parts) {
      for await (const chunk of scan(deviceId, part)) {
        for (const [i, output] of outputs.entries()) await write(i, output.formatter.chunk(chunk));
        const last = chunk[chunk.length - 1];
        if (last && onProgress) await onProgress(done + last.timestamp - part.from + 1, total);
      }
      done += part.to - part.from + 1;
    }
    const results: ReadingsFileResult[] = [];
    for (const [i, output] of outputs.entries()) {
      await write(i, output.formatter.tail());
      const closed = await output.file.close();
      results.push({ rows: output.formatter.rows, ...closed, sha256: hashes[i]!.digest('hex') });
    }
    return results;
  } catch (error) {
    await Promise.all(outputs.map((output) => output.file.abort().catch(() => undefined)));
    throw error;
  }
};
