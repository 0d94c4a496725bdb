import { DEFAULT_ABORT, DEFAULT_STAGES } from '../../../../shared/code-releases/rollout-rules';
import { NewRollout, type Rollout } from '../../../../shared/contracts/code-releases';
import {
  abortText,
  adoption,
  defaultStageRows,
  deviceIdsOf,
  durationText,
  EMPTY_ROLLOUT_FORM,
  haltedPreparingText,
  preparingText,
  rolloutBody,
  sha256Hex,
  skippedText,
  stageStatus,
  stagesText,
} from './release-rules';

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

  it('builds the rollout body of the chosen target kind only, with the default stages and criteria', () => {
    const form = { ...EMPTY_ROLLOUT_FORM, kind: 'campaign' as const, deviceIds: 'dev-a', campaignId: ' camp-1 ' };
    const body = rolloutBody(form);
    expect(body.target).toEqual({ kind: 'campaign', campaignId: 'camp-1' });
    expect(body).not.toHaveProperty('note');
    // The same stages and criteria the API applies when none are sent.
    expect(body.stages).toEqual(DEFAULT_STAGES);
    expect(body.abort).toEqual(DEFAULT_ABORT);
    expect(NewRollout.safeParse(body).success).toBe(true);
    expect(rolloutBody({ ...form, kind: 'devices', note: 'Pilot' })).toMatchObject({
      target: { kind: 'devices', deviceIds: ['dev-a'] },
      note: 'Pilot',
    });
  });

  it('names the canary devices, turns hours into seconds, and leaves what is not a number for the check to name', () => {
    const [canary, ...rest] = defaultStageRows();
    const body = rolloutBody({
      ...EMPTY_ROLLOUT_FORM,
      deviceIds: 'dev-a dev-b dev-c',
      stages: [{ ...canary!, deviceIds: 'dev-b, dev-c', soakHours: '1.5' }, ...rest],
      timeoutHours: 'soon',
    });
    expect(body.stages[0]).toEqual({ name: 'Canary', percent: 1, deviceIds: ['dev-b', 'dev-c'], soakSeconds: 5_400 });
    const checked = NewRollout.safeParse(body);
    expect(checked.success ? '' : checked.error.issues[0]!.message).toBe('timeoutSeconds must be a number of seconds');
  });

  it('says the stages and criteria in words', () => {
    expect(stagesText(DEFAULT_STAGES)).toBe('Canary (1 %) → 5 % → 25 % → Everyone (100 %), 24 h each');
    expect(durationText(5_400)).toBe('1.5 h');
    expect(durationText(600)).toBe('10 min');
    expect(abortText(DEFAULT_ABORT)).toContain('make it 90 % sure that 10 % or more of its devices fail, once 5 have');
  });

  it('starts no stage of a rollout still assigning its devices, and says how far the assignment is', () => {
    const rollout = { status: 'active', currentStage: 0 } as Rollout;
    expect([0, 1].map((index) => stageStatus(rollout, index))).toEqual(['current', 'waiting']);
    const preparing = { assigned: 2_500, of: 10_000 };
    for (const status of ['preparing', 'halted'] as const) {
      expect([0, 1].map((index) => stageStatus({ ...rollout, status, preparing }, index))).toEqual([
        'waiting',
        'waiting',
      ]);
    }
    expect(stageStatus({ ...rollout, status: 'halted' }, 0)).toBe('current');
    expect(preparingText(preparing)).toBe('Assigning its devices: 2,500 of 10,000.');
    expect(preparingText(undefined)).toBe('Assigning its devices.');
    expect(haltedPreparingText(preparing)).toBe(
      'Halted while assigning its devices (2,500 of 10,000 assigned): nothing was offered. Resuming goes on assigning them.',
    );
  });

  it('hashes a file as the server does', async () => {
    expect(await sha256Hex(new Blob(['abc']))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
