import type { CampaignSeries, ComparedDevice } from '../../../shared/contracts/sensor-data-campaigns';
import { MESSAGES } from '../../../shared/messages';
import { relationId } from '../../../shared/relations/relation-types';
import { type FreshUser, freshUser } from '../../support/people';
import { seedRelation } from '../../support/relations';
import { freshDevice, ingest, setTier, type TestDevice } from '../../support/sensor-data';
import { apiAs, apiRejection, tokenOf, uniqueId } from '../../support/stack';

/**
 * A campaign's comparison through the local gateway (docs/sensor-data.md, "Campaign comparison"): every device of
 * the campaign in one answer, each through the same gate as its own series (relations, the campaign path and its
 * window, public data, the tier's window), a device the caller may not see listed as such, and the read path's
 * guarantees (a revoked relation or a tier change counts on the very next request).
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = Date.now();
/** Readings 17 minutes past each hour (away from the hour and day boundaries the roll-ups cut at). */
const hourly = (value: number, days: number) =>
  Array.from({ length: days * 24 }, (_, i) => ({
    timestamp: Math.floor(now / HOUR) * HOUR - (days * 24 - 1 - i) * HOUR - 43 * 60_000,
    values: { temperature: value },
  }));

let owner: FreshUser;
let member: FreshUser;
let participant: FreshUser;
/** The owner of the foreign and public devices. */
let stranger: FreshUser;
let campaign: { id: string; startsAt: number; endsAt: number };
/** The owner's private device, another person's private device, a public Tier 0 device, and one with no record. */
let own: TestDevice;
let foreign: TestDevice;
let open: TestDevice;
const ghost = uniqueId('ghost-device');

const compare = (token: string | undefined, query: Record<string, number> = {}, id = campaign.id) =>
  apiAs('sensor-data', token).campaignSeries({ params: { id }, query: { width: 800, ...query } });

const deviceIn = (answer: CampaignSeries, deviceId: string): ComparedDevice => {
  const found = answer.devices.find((device) => device.deviceId === deviceId);
  if (!found) throw new Error(`${deviceId} is not in the answer: ${answer.devices.map((d) => d.deviceId)}`);
  return found;
};

/** The device's values in the answer, with the bucket starts they are at. */
const valuesOf = (answer: CampaignSeries, deviceId: string) => {
  const line = deviceIn(answer, deviceId).series.temperature;
  return (line?.mean ?? []).flatMap((value, i) => (value === null ? [] : [{ t: answer.t[i]!, value }]));
};

beforeAll(async () => {
  [owner, member, participant] = await Promise.all([
    freshUser({ prefix: 'compare-owner' }),
    freshUser({ prefix: 'compare-member' }),
    freshUser({ prefix: 'compare-participant' }),
  ]);
  stranger = await freshUser({ prefix: 'compare-foreign-owner' });
  [own, foreign, open] = await Promise.all([
    freshDevice({ ownerToken: owner.token }),
    freshDevice({ ownerToken: stranger.token }),
    freshDevice({ ownerToken: stranger.token, visibility: 'public' }),
  ]);
  await Promise.all([setTier(own.id, 'tier2'), setTier(foreign.id, 'tier2'), setTier(open.id, 'tier0')]);
  campaign = await apiAs('campaigns', owner.token).create({
    body: { name: uniqueId('Comparison'), startsAt: now - 10 * DAY, endsAt: now + DAY },
  });
  const relations = apiAs('relations', owner.token);
  // The manager adds what the API lets a manager add; the other devices as an operator would.
  await relations.create({ body: { type: 'campaign-device', referrerId: campaign.id, referentId: own.id } });
  await relations.create({ body: { type: 'campaign-user', referrerId: campaign.id, referentId: member.id } });
  await relations.create({
    body: { type: 'campaign-participant', referrerId: campaign.id, referentId: participant.id },
  });
  for (const deviceId of [foreign.id, open.id, ghost]) await seedRelation('campaign-device', campaign.id, deviceId);

  await Promise.all([ingest(own, hourly(1, 10)), ingest(foreign, hourly(2, 10)), ingest(open, hourly(3, 10))]);
  // The worker rolls the hours up after the stack's queue delivers them: wait until every line is there.
  for (let tries = 0; ; tries++) {
    const answer = await compare(owner.token);
    const counts = [own, foreign, open].map((device) => valuesOf(answer, device.id).length);
    if (counts[0]! > 230 && counts[1]! > 230 && counts[2]! > 160) break;
    if (tries > 300) throw new Error(`The roll-ups did not arrive: ${counts}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 120_000);

describe('GET /sensor-data/campaigns/{id}/series', () => {
  it("charts every device of the campaign for its manager, each to its own gate, over the campaign's window", async () => {
    const answer = await compare(owner.token);
    expect(answer).toMatchObject({ campaignId: campaign.id, from: campaign.startsAt, resolution: 'hour' });
    expect(answer.bucketMs).toBe(HOUR);
    expect(answer.measurements).toEqual([{ name: 'temperature', label: 'Temperature', unit: '°C' }]);
    expect(answer.devices.map((d) => d.deviceId)).toEqual([own.id, foreign.id, open.id, ghost].sort());
    expect(answer.moreDevices).toBe(0);

    // Its own device and the campaign's private one (a manager sees it through the campaign): the whole window.
    for (const [device, value] of [
      [own, 1],
      [foreign, 2],
    ] as const) {
      expect(deviceIn(answer, device.id)).toMatchObject({ status: 'shown', from: campaign.startsAt });
      expect(deviceIn(answer, device.id).message).toBeUndefined();
      const values = valuesOf(answer, device.id);
      expect(values.every((v) => v.value === value)).toBe(true);
      expect(values[0]!.t).toBeLessThan(campaign.startsAt + 2 * HOUR);
    }
    // The public Tier 0 device: its 7 days only, and why.
    const clipped = deviceIn(answer, open.id);
    expect(clipped.status).toBe('shown');
    expect(clipped.from).toBeGreaterThan(now - 7 * DAY - 60_000);
    expect(clipped.message).toBe(MESSAGES.outsideTierWindow('view', 'Tier 0', 7, 'sd1', 'Tier 1'));
    expect(valuesOf(answer, open.id)[0]!.t).toBeGreaterThanOrEqual(clipped.from!);
    expect(valuesOf(answer, open.id).every((v) => v.value === 3)).toBe(true);
    // A device the campaign names but that does not exist: listed, not a failure.
    expect(deviceIn(answer, ghost)).toEqual({ deviceId: ghost, status: 'not-found', series: {} });
    // One time axis, means only.
    for (const device of [own, foreign, open]) {
      expect(deviceIn(answer, device.id).series.temperature!.mean).toHaveLength(answer.t.length);
      expect(Object.keys(deviceIn(answer, device.id).series.temperature!)).toEqual(['mean', 'gapMs']);
    }
  });

  it("shows a campaign user the campaign's devices through the campaign, and a participant only public data", async () => {
    const asMember = await compare(member.token);
    expect([own, foreign, open].map((device) => deviceIn(asMember, device.id).status)).toEqual([
      'shown',
      'shown',
      'shown',
    ]);
    expect(valuesOf(asMember, foreign.id).length).toBeGreaterThan(230);

    // Participants see the campaign but not its devices (spec §6): the private ones are listed without a name.
    const asParticipant = await compare(participant.token);
    for (const device of [own, foreign]) {
      expect(deviceIn(asParticipant, device.id)).toEqual({
        deviceId: device.id,
        status: 'no-access',
        message: MESSAGES.accessDenied('device'),
        series: {},
      });
    }
    expect(deviceIn(asParticipant, open.id)).toMatchObject({ status: 'shown', tier: { tier: 'tier0' } });
    expect(valuesOf(asParticipant, open.id).length).toBeGreaterThan(160);
  });

  it('lets staff compare any campaign, and refuses strangers and guests', async () => {
    const staff = await compare(await tokenOf('employee@example.com'));
    expect(deviceIn(staff, foreign.id).status).toBe('shown');
    const outsider = await freshUser({ prefix: 'compare-outsider' });
    const refused = await apiRejection(compare(outsider.token));
    expect([refused.status, refused.message]).toEqual([403, MESSAGES.accessDenied('campaign')]);
    expect((await apiRejection(compare(undefined))).status).toBe(401);
    const missing = await apiRejection(compare(await tokenOf('employee@example.com'), {}, uniqueId('no-campaign')));
    expect(missing.status).toBe(404);
  });

  it('charts a part of the window asked for, and refuses a bad or outside range with a clear message', async () => {
    const part = await compare(owner.token, { from: now - 2 * DAY, to: now - DAY });
    expect([part.from, part.to, part.resolution]).toEqual([now - 2 * DAY, now - DAY, 'minute']);
    expect(valuesOf(part, own.id).length).toBeGreaterThanOrEqual(23);
    const backwards = await apiRejection(compare(owner.token, { from: now, to: now - DAY }));
    expect([backwards.status, backwards.message]).toEqual([400, expect.stringContaining('from must not be after to')]);
    const outside = await apiRejection(compare(owner.token, { from: now - 30 * DAY, to: now - 20 * DAY }));
    expect([outside.status, outside.message]).toEqual([400, expect.stringContaining("outside the campaign's window")]);
  });
});

describe("the comparison answers to the read path's guarantees", () => {
  it('a tier change counts on the very next comparison', async () => {
    await compare(owner.token);
    await setTier(open.id, 'tier1');
    try {
      const answer = await compare(owner.token);
      expect(deviceIn(answer, open.id)).toMatchObject({ status: 'shown', from: campaign.startsAt });
      expect(deviceIn(answer, open.id).message).toBeUndefined();
    } finally {
      await setTier(open.id, 'tier0');
    }
  });

  it("a device made private leaves a participant's comparison at once", async () => {
    expect(deviceIn(await compare(participant.token), open.id).status).toBe('shown');
    const devices = apiAs('devices', stranger.token);
    await devices.update({ params: { id: open.id }, body: { dataVisibility: 'private' } });
    try {
      expect(deviceIn(await compare(participant.token), open.id).status).toBe('no-access');
    } finally {
      await devices.update({ params: { id: open.id }, body: { dataVisibility: 'public' } });
    }
  });

  it('a device taken out of the campaign leaves the next comparison', async () => {
    const extra = await freshDevice({ ownerToken: owner.token });
    const relations = apiAs('relations', owner.token);
    await relations.create({ body: { type: 'campaign-device', referrerId: campaign.id, referentId: extra.id } });
    expect((await compare(member.token)).devices.map((d) => d.deviceId)).toContain(extra.id);
    await relations.delete({ params: { id: relationId('campaign-device', campaign.id, extra.id) } });
    expect((await compare(member.token)).devices.map((d) => d.deviceId)).not.toContain(extra.id);
  });

  it('a member who leaves the campaign is refused at once, after cached grants', async () => {
    const leaver = await freshUser({ prefix: 'compare-leaver' });
    const relations = apiAs('relations', owner.token);
    await relations.create({ body: { type: 'campaign-user', referrerId: campaign.id, referentId: leaver.id } });
    for (let i = 0; i < 2; i++) expect(deviceIn(await compare(leaver.token), foreign.id).status).toBe('shown');
    await relations.delete({ params: { id: relationId('campaign-user', campaign.id, leaver.id) } });
    expect((await apiRejection(compare(leaver.token))).status).toBe(403);
  });
});
