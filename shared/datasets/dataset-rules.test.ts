import { citationOf } from './dataset-rules';

describe('citationOf', () => {
  it("writes DataCite's recommended form, creators joined, with the version and the landing page", () => {
    expect(
      citationOf({
        creators: [{ name: 'Ada Lovelace' }, { name: 'Northside Air Network' }],
        title: 'Lake shore survey',
        version: 2,
        publisher: 'Device Data Platform',
        year: 2026,
        url: 'https://app.example/dashboard/datasets/ds_0123456789ab',
      }),
    ).toBe(
      'Ada Lovelace; Northside Air Network (2026). Lake shore survey (Version 2) [Data set]. Device Data Platform. ' +
        'https://app.example/dashboard/datasets/ds_0123456789ab',
    );
  });
});
