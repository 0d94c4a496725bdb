import type { Campaign } from '../../../../shared/contracts/campaigns';
import {
  campaignFormOf,
  checkCampaignChange,
  checkNewCampaign,
  checkParticipantInvite,
  emptyCampaignForm,
  fromLocalInput,
  toLocalInput,
} from './campaign-rules';

const campaign: Campaign = {
  id: '4a0b3f0e-8c53-4d6e-9a4f-1e2d3c4b5a69',
  name: 'Winter',
  description: '',
  startsAt: new Date(2030, 0, 1, 8, 0).getTime(),
  endsAt: new Date(2030, 2, 1, 8, 0).getTime() + 123,
  status: 'planned',
  created: 1,
  createdBy: 'u',
  updated: 1,
};

describe('campaign forms', () => {
  it('reads and writes datetime-local values in local time, refusing dates that are not dates', () => {
    const ms = new Date(2030, 5, 15, 9, 30).getTime();
    expect(toLocalInput(ms)).toBe('2030-06-15T09:30');
    expect(fromLocalInput('2030-06-15T09:30')).toBe(ms);
    expect(fromLocalInput('2030-02-31T09:30')).toBeUndefined();
    expect(fromLocalInput('soon')).toBeUndefined();
  });

  it('asks for both ends, then for an end after the start, under the end field', () => {
    const base = { ...emptyCampaignForm(), name: 'Spring' };
    const noStart = checkNewCampaign(base);
    expect(noStart.ok).toBe(false);
    if (!noStart.ok) expect(noStart.fields.startsAt).toBe('Give the date and time the campaign starts');
    const backwards = checkNewCampaign({ ...base, startsAt: '2030-05-02T10:00', endsAt: '2030-05-01T10:00' });
    expect(backwards.ok).toBe(false);
    if (!backwards.ok) expect(backwards.fields.endsAt).toBe('The campaign must end after it starts');
    const good = checkNewCampaign({ ...base, startsAt: '2030-05-01T10:00', endsAt: '2030-05-02T10:00' });
    expect(good).toEqual({
      ok: true,
      value: {
        name: 'Spring',
        description: '',
        startsAt: fromLocalInput('2030-05-01T10:00'),
        endsAt: fromLocalInput('2030-05-02T10:00'),
      },
    });
  });

  it('sends the whole window when one end changed, keeping the other to the millisecond', () => {
    const form = campaignFormOf(campaign);
    const moved = checkCampaignChange(campaign, { ...form, startsAt: '2030-01-02T08:00' });
    expect(moved).toEqual({
      ok: true,
      value: { startsAt: fromLocalInput('2030-01-02T08:00'), endsAt: campaign.endsAt },
    });
    const nothing = checkCampaignChange(campaign, form);
    expect(nothing.ok).toBe(false);
    if (!nothing.ok) expect(nothing.message).toBe('Nothing to change');
    const inverted = checkCampaignChange(campaign, { ...form, endsAt: '2029-12-01T08:00' });
    expect(inverted.ok).toBe(false);
    if (!inverted.ok) expect(inverted.fields.endsAt).toBe('The campaign must end after it starts');
  });

  it('unlinks an organization with null', () => {
    const linked = { ...campaign, organizationId: 'org-1' };
    expect(checkCampaignChange(linked, { ...campaignFormOf(linked), organizationId: '' })).toEqual({
      ok: true,
      value: { organizationId: null },
    });
  });

  it('invites a participant to this campaign from the caller', () => {
    const checked = checkParticipantInvite(
      { email: ' p@example.com ', name: '', message: '' },
      { id: 'me', name: 'Me' },
      campaign.id,
    );
    expect(checked).toEqual({
      ok: true,
      value: {
        type: 'campaign-participant',
        inviterId: 'me',
        inviterName: 'Me',
        objectId: campaign.id,
        invited: { email: 'p@example.com' },
      },
    });
    expect(
      checkParticipantInvite({ email: 'nope', name: '', message: '' }, { id: 'me', name: 'Me' }, campaign.id).ok,
    ).toBe(false);
  });
});
