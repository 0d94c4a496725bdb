import { createHash } from 'node:crypto';
import type { TimeRange } from '../../../shared/campaigns/window';
import type { FileWriter } from './export-files';
import { createExportFormatter, type ExportReading } from './export-format';
import { measurementsIn, writeReadingsFiles } from './readings-file';

const T0 = Date.UTC(2026, 2, 1);
const HOUR = 3_600_000;

const memoryFile = () => {
  const state = { text: '', closed: false, aborted: false };
  const file: FileWriter = {
    write: async (chunk) => {
      state.text += String(chunk);
    },
    close: async () => {
      state.closed = true;
      return { bytes: Buffer.byteLength(state.text), versionId: 'v1' };
    },
    abort: async () => {
      state.aborted = true;
    },
  };
  return { file, state };
};

const readings: ExportReading[] = Array.from({ length: 48 }, (_, i) => ({
  timestamp: T0 + i * HOUR,
  values: (i % 2 ? { pm2_5: i } : { pm2_5: i, lab_temp: i / 2 }) as Record<string, number>,
}));
const scan = async function* (_deviceId: string, { from, to }: TimeRange) {
  const inside = readings.filter((r) => r.timestamp >= from && r.timestamp <= to);
  for (let i = 0; i < inside.length; i += 10) yield inside.slice(i, i + 10);
};
const meta = {
  deviceId: 'd1',
  deviceName: 'D',
  from: T0,
  to: T0 + 48 * HOUR - 1,
  columns: [{ name: 'pm2_5', unit: 'µg/m³' }],
};
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('writeReadingsFiles', () => {
  it('writes CSV and JSON from one read, each with its rows, bytes and the SHA-256 of exactly what was stored', async () => {
    const csv = memoryFile();
    const json = memoryFile();
    const progress: number[] = [];
    const parts = [
      { from: T0, to: T0 + 10 * HOUR - 1 },
      { from: T0 + 20 * HOUR, to: T0 + 30 * HOUR - 1 },
    ];
    const results = await writeReadingsFiles({
      deviceId: 'd1',
      parts,
      scan,
      outputs: [
        { formatter: createExportFormatter('csv', meta), file: csv.file },
        { formatter: createExportFormatter('json', meta), file: json.file },
      ],
      onProgress: async (done, total) => {
        progress.push(done / total);
      },
    });
    expect(results).toEqual([
      { rows: 20, bytes: Buffer.byteLength(csv.state.text), sha256: sha256(csv.state.text), versionId: 'v1' },
      { rows: 20, bytes: Buffer.byteLength(json.state.text), sha256: sha256(json.state.text), versionId: 'v1' },
    ]);
    expect(csv.state.text.split('\r\n')[0]).toBe('timestamp,iso_time,pm2_5 (µg/m³)');
    expect(JSON.parse(json.state.text).readings).toHaveLength(20);
    // A µ is two bytes: the size counts bytes, not characters.
    expect(results[0]!.bytes).toBeGreaterThan(csv.state.text.length);
    expect(progress.at(-1)).toBeGreaterThan(0.9);
    expect(progress.at(-1)).toBeLessThanOrEqual(1);
    expect(progress.every((p, i) => i === 0 || p > progress[i - 1]!)).toBe(true);
  });

  it('aborts every file when the read fails, and throws the failure back', async () => {
    const csv = memoryFile();
    const json = memoryFile();
    await expect(
      writeReadingsFiles({
        deviceId: 'd1',
        parts: [{ from: T0, to: T0 + HOUR }],
        // biome-ignore lint/correctness/useYield: a scan that fails before its first chunk
        scan: async function* () {
          throw new Error('throttled');
        },
        outputs: [
          { formatter: createExportFormatter('csv', meta), file: csv.file },
          { formatter: createExportFormatter('json', meta), file: json.file },
        ],
      }),
    ).rejects.toThrow('throttled');
    expect([csv.state.aborted, json.state.aborted]).toEqual([true, true]);
    expect(csv.state.closed).toBe(false);
  });

  it('finds the measurement names in the readings of the parts only', async () => {
    expect([...(await measurementsIn(scan, 'd1', [{ from: T0 + HOUR, to: T0 + HOUR }]))]).toEqual(['pm2_5']);
    expect([...(await measurementsIn(scan, 'd1', [{ from: T0, to: T0 + 2 * HOUR }]))].sort()).toEqual([
      'lab_temp',
      'pm2_5',
    ]);
  });
});
