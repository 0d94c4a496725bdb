import { toOrganization } from './organization-store';

describe('toOrganization', () => {
  it('keeps a complete row as it is', () => {
    const row = {
      id: 'o1',
      name: 'Acme',
      description: 'Sensors',
      website: 'https://acme.example',
      contactEmail: 'ops@acme.example',
      logo: { key: 'organizations/o1/logo-x', contentType: 'image/png', size: 10, updated: 5 },
      created: 1,
      createdBy: 'ann',
      updated: 5,
    };
    expect(toOrganization(row)).toEqual(row);
  });

  it('reads a partial row written outside the area without breaking the contract', () => {
    expect(toOrganization({ id: 'o2', name: 'Bare', created: 7 })).toEqual({
      id: 'o2',
      name: 'Bare',
      created: 7,
      createdBy: '',
      updated: 7,
    });
    expect(toOrganization({ id: 'o3', description: '', logo: { key: 'k', contentType: 'image/svg+xml' } })).toEqual({
      id: 'o3',
      name: 'o3',
      created: 0,
      createdBy: '',
      updated: 0,
    });
  });
});
