import { createExportFormatter, csvField, exportColumns, orderMeasurements } from './export-format';

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);

describe('export columns', () => {
  it('orders catalogue measurements as the catalogue does, then other names alphabetically', () => {
    expect(orderMeasurements(['zeta', 'humidity', 'pm2_5', 'alpha', 'pm1', 'humidity'])).toEqual([
      'pm1',
      'pm2_5',
      'humidity',
      'alpha',
      'zeta',
    ]);
  });

  it("takes the catalogue's unit, else the device's declared one, else none", () => {
    expect(exportColumns(['pm2_5', 'lux', 'odd'], { lux: 'lx' })).toEqual([
      { name: 'pm2_5', unit: 'µg/m³' },
      { name: 'lux', unit: 'lx' },
      { name: 'odd' },
    ]);
  });

  it('quotes CSV fields that hold commas, quotes or line breaks', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
  });
});

const meta = {
  deviceId: 'dev-1',
  deviceName: 'Kitchen, north',
  from: T0,
  to: T0 + 60_000,
  columns: exportColumns(['pm2_5', 'temperature', 'weird'], { weird: 'a,b' }),
};

describe('CSV', () => {
  it('writes a header with units, one row per reading with empty cells for missing values, skipping empty readings', () => {
    const f = createExportFormatter('csv', meta);
    const text =
      f.head() +
      f.chunk([
        { timestamp: T0, values: { pm2_5: 12.5, temperature: -3 } },
        { timestamp: T0 + 1000, values: { other: 1 } },
      ]) +
      f.chunk([{ timestamp: T0 + 2000, values: { weird: 7 } }]) +
      f.tail();
    expect(text.split('\r\n')).toEqual([
      'timestamp,iso_time,pm2_5 (µg/m³),temperature (°C),"weird (a,b)"',
      `${T0},2026-01-02T03:04:05.000Z,12.5,-3,`,
      `${T0 + 2000},2026-01-02T03:04:07.000Z,,,7`,
      '',
    ]);
    expect(f.rows).toBe(2);
  });
});

describe('JSON', () => {
  it('writes one parseable document, also when there are no readings', () => {
    const empty = createExportFormatter('json', meta);
    const emptyDoc = JSON.parse(empty.head() + empty.chunk([]) + empty.tail());
    expect(emptyDoc).toMatchObject({ deviceId: 'dev-1', deviceName: 'Kitchen, north', readings: [] });

    const f = createExportFormatter('json', meta);
    const doc = JSON.parse(
      f.head() +
        f.chunk([{ timestamp: T0, values: { pm2_5: 1, other: 2 } }]) +
        f.chunk([{ timestamp: T0 + 1, values: { temperature: 20.25 } }]) +
        f.tail(),
    );
    expect(doc.measurements).toEqual(meta.columns);
    expect(doc.readings).toEqual([
      { timestamp: T0, time: '2026-01-02T03:04:05.000Z', values: { pm2_5: 1 } },
      { timestamp: T0 + 1, time: '2026-01-02T03:04:05.001Z', values: { temperature: 20.25 } },
    ]);
  });
});
