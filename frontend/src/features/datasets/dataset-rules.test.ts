import { DATASET_LICENSES } from '../../../../shared/datasets/dataset-rules';
import { emptyForm, requestOf } from './dataset-form';
import { datasetStatusText, deviceWindowText } from './dataset-rules';

describe('the build form', () => {
  it('makes the request the API takes: dates as whole UTC days, creators and measurements split', () => {
    expect(
      requestOf({
        ...emptyForm(),
        title: ' Lake PM ',
        creators: 'Ada Lovelace; Northside Air Network;',
        deviceIds: ['d1', 'd2'],
        from: '2026-05-01',
        to: '2026-05-31',
        measurements: 'pm2_5, temperature',
        parquet: true,
      }),
    ).toEqual({
      ok: true,
      value: {
        title: 'Lake PM',
        description: '',
        creators: [{ name: 'Ada Lovelace' }, { name: 'Northside Air Network' }],
        license: DATASET_LICENSES[0],
        visibility: 'permissioned',
        source: { kind: 'devices', deviceIds: ['d1', 'd2'] },
        from: Date.UTC(2026, 4, 1),
        to: Date.UTC(2026, 5, 1) - 1,
        measurements: ['pm2_5', 'temperature'],
        parquet: true,
      },
    });
  });

  it('says what is missing before asking the API, next to the field it is about', () => {
    const refused = (message: string, field: string) => ({ ok: false, message, fields: { [field]: message } });
    expect(requestOf({ ...emptyForm(), deviceIds: ['d1'] })).toEqual(refused('Give the dataset a title', 'title'));
    expect(requestOf({ ...emptyForm(), title: 'T' })).toEqual(refused('Choose at least one device', 'deviceIds'));
    expect(requestOf({ ...emptyForm(), title: 'T', sourceKind: 'campaign' })).toEqual(
      refused('Choose a campaign', 'campaignId'),
    );
    expect(requestOf({ ...emptyForm(), title: 'T', deviceIds: ['d'], from: '2026-6-1' })).toEqual(
      refused('Dates are YYYY-MM-DD', 'from'),
    );
    expect(requestOf({ ...emptyForm(), title: 'T', deviceIds: ['d'], from: '2026-06-02', to: '2026-06-01' })).toEqual(
      refused('The range must start before it ends', 'to'),
    );
  });
});

describe('what the page says', () => {
  it("names a device's tier and window, or why it holds no rows", () => {
    const tier = { id: 'tier1', name: 'Tier 1' };
    expect(deviceWindowText({ tier, windowDays: null, parts: [] })).toBe('Tier 1 offers no downloads: no rows');
    expect(
      deviceWindowText({ tier, windowDays: 30, parts: [{ from: Date.UTC(2026, 4, 1), to: Date.UTC(2026, 4, 2) }] }),
    ).toBe('Tier 1: last 30 days · 2026-05-01 00:00 – 2026-05-02 00:00 UTC');
  });

  it('gives the state in one line', () => {
    const base = { rows: 0, bytes: 0, progress: 0 };
    expect(datasetStatusText({ ...base, status: 'queued' })).toBe('Queued');
    expect(datasetStatusText({ ...base, status: 'building', progress: 45 })).toBe('Building… 45 %');
    expect(datasetStatusText({ ...base, status: 'frozen', rows: 1234, bytes: 58_061, progress: 100 })).toBe(
      'Frozen: 1,234 rows, 56.7 KB',
    );
    expect(datasetStatusText({ ...base, status: 'failed', error: 'Nope' })).toBe('Failed: Nope');
  });
});
