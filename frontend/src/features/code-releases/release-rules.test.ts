import { adoption, deviceIdsOf, rolloutBody, sha256Hex, skippedText } from './release-rules';

describe('release page rules', () => {
  it('counts adoption against the devices still the rollout’s own', () => {
    expect(adoption({ targeted: 5, adopted: 2, superseded: 0 })).toEqual({
      percent: 40,
      text: '2 of 5 devices run it (40 %)',
    });
    expect(adoption({ targeted: 2, adopted: 1, superseded: 1 }).text).toBe('1 of 1 device runs it (100 %)');
    expect(adoption({ targeted: 1, adopted: 0, superseded: 1 }).percent).toBe(0);
  });

  it('says what was not assigned, and nothing when all was', () => {
    expect(skippedText({ otherProductLine: 2, retired: 0, unknown: 1 })).toBe(
      'Not assigned: 2 of another product line, 1 unknown.',
    );
    expect(skippedText({ otherProductLine: 0, retired: 0, unknown: 0 })).toBe('');
  });

  it('reads device ids one per line or separated by commas, each once', () => {
    expect(deviceIdsOf(' dev-a, dev-b\ndev-a  dev-c;')).toEqual(['dev-a', 'dev-b', 'dev-c']);
  });

  it('builds the rollout body of the chosen target kind only', () => {
    const form = {
      kind: 'campaign' as const,
      deviceIds: 'dev-a',
      campaignId: ' camp-1 ',
      organizationId: 'org',
      note: ' ',
    };
    expect(rolloutBody(form)).toEqual({ target: { kind: 'campaign', campaignId: 'camp-1' } });
    expect(rolloutBody({ ...form, kind: 'devices', note: 'Pilot' })).toEqual({
      target: { kind: 'devices', deviceIds: ['dev-a'] },
      note: 'Pilot',
    });
  });

  it('hashes a file as the server does', async () => {
    expect(await sha256Hex(new Blob(['abc']))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
