import { MESSAGES } from '../../../shared/messages';
import { alertsAs, thresholdRule } from '../../support/alerts';
import { freshUser } from '../../support/people';
import { seedRelation } from '../../support/relations';
import { freshDevice, ingest } from '../../support/sensor-data';
import { apiAs, apiRejection, tokenOf } from '../../support/stack';

/**
 * Alert rules through the local gateway (docs/alerts.md, "Rules"): who may set and see them, what a bad body is
 * told (naming the field), and the preview's backtest over the device's readings.
 */

const MIN = 60_000;

describe('alert rules', () => {
  it('an owner creates, reads, changes and deletes a rule; the defaults it left out are shown', async () => {
    const owner = await freshUser({ prefix: 'alert-owner' });
    const device = await freshDevice({ ownerToken: owner.token });
    const alerts = alertsAs(owner.token);
    const created = await alerts.createRule({ body: thresholdRule(device.id, 35) });
    expect(created).toMatchObject({
      target: { kind: 'device', id: device.id },
      condition: { kind: 'threshold', measurement: 'pm2_5', above: 35, forSeconds: 0 },
      recipients: [],
      enabled: true,
      createdBy: owner.id,
      effective: { clearBelow: 31.5, clearForSeconds: 0 },
    });
    expect(await alerts.getRule({ params: { id: created.id } })).toEqual(created);
    const listed = await alerts.listRules({ query: { deviceId: device.id } });
    expect(listed.items.map((r) => r.id)).toEqual([created.id]);

    const changed = await alerts.updateRule({
      params: { id: created.id },
      body: thresholdRule(device.id, 50, { clearBelow: 40, forSeconds: 120 }, { name: created.name }),
    });
    expect(changed.effective).toEqual({ clearBelow: 40, clearForSeconds: 120 });
    await alerts.deleteRule({ params: { id: created.id } });
    expect((await apiRejection(alerts.getRule({ params: { id: created.id } }))).status).toBe(404);
  });

  it('a person without access to the device can neither see its rules nor be a recipient', async () => {
    const owner = await freshUser({ prefix: 'alert-owner' });
    const stranger = await freshUser({ prefix: 'alert-stranger' });
    const device = await freshDevice({ ownerToken: owner.token });
    const rule = await alertsAs(owner.token).createRule({ body: thresholdRule(device.id, 35) });
    const theirs = alertsAs(stranger.token);
    expect((await apiRejection(theirs.getRule({ params: { id: rule.id } }))).status).toBe(403);
    expect((await apiRejection(theirs.listRules({ query: { deviceId: device.id } }))).status).toBe(403);
    expect((await apiRejection(theirs.listEvents({ query: { deviceId: device.id } }))).status).toBe(403);

    const refused = await apiRejection(
      alertsAs(owner.token).createRule({
        body: thresholdRule(device.id, 35, {}, { recipients: [{ kind: 'person', userId: stranger.id }] }),
      }),
    );
    expect([refused.status, refused.message]).toEqual([
      400,
      `Invalid body: recipients.0.userId: ${MESSAGES.alertRecipientNoAccess('device')}`,
    ]);
    // Given the device, the same person may be one.
    await seedRelation('device-user', device.id, stranger.id);
    const withThem = await alertsAs(owner.token).createRule({
      body: thresholdRule(device.id, 35, {}, { recipients: [{ kind: 'person', userId: stranger.id }] }),
    });
    expect(withThem.recipients).toEqual([{ kind: 'person', userId: stranger.id }]);
    // A device user sees the rules but may not set them.
    expect((await theirs.listRules({ query: { deviceId: device.id } })).items).toHaveLength(2);
    const notManager = await apiRejection(theirs.createRule({ body: thresholdRule(device.id, 10) }));
    expect([notManager.status, notManager.message]).toEqual([403, MESSAGES.alertManageRequired('device')]);
  });

  it('bad input gets a 4xx naming the field', async () => {
    const owner = await freshUser({ prefix: 'alert-owner' });
    const device = await freshDevice({ ownerToken: owner.token });
    const alerts = alertsAs(owner.token);
    const refusal = async (body: unknown) => {
      const error = await apiRejection(alerts.createRule({ body: body as never }));
      return [error.status, error.body.issues?.map((issue) => issue.path)];
    };
    const base = thresholdRule(device.id, 35);
    expect(await refusal({ ...base, condition: { ...base.condition, measurement: 'soil_moisture' } })).toEqual([
      400,
      ['body.condition.measurement'],
    ]);
    expect(await refusal({ ...base, condition: { ...base.condition, forSeconds: -5 } })).toEqual([
      400,
      ['body.condition.forSeconds'],
    ]);
    expect(await refusal({ ...base, condition: { ...base.condition, above: 'high' } })).toEqual([
      400,
      ['body.condition.above'],
    ]);
    expect(await refusal({ ...base, condition: { kind: 'silence', afterSeconds: 10 } })).toEqual([
      400,
      ['body.condition.afterSeconds'],
    ]);
    expect(await refusal({ ...base, recipients: [{ kind: 'role', role: 'managers' }] })).toEqual([
      400,
      ['body.recipients.0.role'],
    ]);
    // A window whose end comes before its start (the fuzz test's 500: DynamoDB refuses the reversed BETWEEN).
    const reversed = await apiRejection(alerts.listEvents({ query: { deviceId: device.id, from: 991, to: 669 } }));
    expect([reversed.status, reversed.body.issues?.map((issue) => issue.path)]).toEqual([400, ['query.from']]);
    const staffReversed = await apiRejection(
      alertsAs(await tokenOf('admin@example.com')).listEvents({ query: { scope: 'all', from: 991, to: 669 } }),
    );
    expect(staffReversed.status).toBe(400);
    // A device someone else owns: refused, naming the rule.
    const other = await freshDevice();
    const foreign = await apiRejection(alerts.createRule({ body: thresholdRule(other.id, 35) }));
    expect([foreign.status, foreign.message]).toEqual([403, MESSAGES.alertManageRequired('device')]);
  });

  it("a campaign's manager sets a rule on its devices; a device's rules list shows it to the device's owner", async () => {
    const manager = await freshUser({ prefix: 'alert-manager' });
    const device = await freshDevice({ ownerToken: manager.token });
    const campaign = await apiAs('campaigns', manager.token).create({
      body: { name: 'Alert campaign', startsAt: Date.now() - MIN, endsAt: Date.now() + 30 * 24 * 60 * MIN },
    });
    await seedRelation('campaign-device', campaign.id, device.id);
    const rule = await alertsAs(manager.token).createRule({
      body: {
        name: 'Campaign silence',
        target: { kind: 'campaign', id: campaign.id },
        condition: { kind: 'silence' },
        recipients: [{ kind: 'role', role: 'managers' }],
        enabled: true,
      },
    });
    expect(rule.effective).toEqual({ afterSeconds: null });
    const ofDevice = await alertsAs(manager.token).listRules({ query: { deviceId: device.id } });
    expect(ofDevice.items.map((r) => r.id)).toContain(rule.id);
    const ofCampaign = await alertsAs(manager.token).listRules({ query: { campaignId: campaign.id } });
    expect(ofCampaign.items.map((r) => r.id)).toEqual([rule.id]);
    // Staff see every rule; a person without a filter, their own.
    const mine = await alertsAs(manager.token).listRules({ query: { limit: 100 } });
    expect(mine.items.map((r) => r.id)).toContain(rule.id);
    const admin = alertsAs(await tokenOf('admin@example.com'));
    expect((await admin.getRule({ params: { id: rule.id } })).id).toBe(rule.id);
  });
});

describe('the preview (a backtest)', () => {
  it('answers the periods the rule would have fired and cleared over the device’s readings', async () => {
    const owner = await freshUser({ prefix: 'alert-preview' });
    const device = await freshDevice({ ownerToken: owner.token });
    const start = Math.floor(Date.now() / MIN) * MIN - 120 * MIN;
    // Two spikes above 35, one a single minute long; the hysteresis keeps 33 from clearing the second.
    const values = [10, 10, 40, 41, 20, 10, 10, 50, 33, 36, 33, 20, 10];
    await ingest(
      device,
      values.map((v, i) => ({ timestamp: start + i * MIN, values: { pm2_5: v } })),
    );
    const alerts = alertsAs(owner.token);
    const preview = await alerts.previewRule({
      body: { ...thresholdRule(device.id, 35), from: start - MIN, to: start + 20 * MIN },
    });
    expect(preview).toMatchObject({ deviceId: device.id, readings: values.length, limit: 35, clearLevel: 31.5 });
    expect(preview.periods).toEqual([
      { firedAt: start + 2 * MIN, clearedAt: start + 4 * MIN, value: 40, peak: 41 },
      { firedAt: start + 7 * MIN, clearedAt: start + 11 * MIN, value: 50, peak: 50 },
    ]);
    // Held for a minute: only the first spike lasts; it clears once back for a minute too (clearForSeconds' default).
    const longer = await alerts.previewRule({
      body: { ...thresholdRule(device.id, 35, { forSeconds: 60 }), from: start - MIN, to: start + 20 * MIN },
    });
    expect(longer.periods).toEqual([{ firedAt: start + 3 * MIN, clearedAt: start + 5 * MIN, value: 41, peak: 41 }]);
    const silence = await alerts.previewRule({
      body: {
        name: 'Silent',
        target: { kind: 'device', id: device.id },
        condition: { kind: 'silence', afterSeconds: 600 },
        enabled: true,
        from: start - MIN,
        to: start + 60 * MIN,
      },
    });
    // Silent from the last reading on: it would have fired 10 minutes after it and still fire at the end.
    expect(silence.periods).toEqual([{ firedAt: start + 22 * MIN }]);
    const bad = await apiRejection(
      alerts.previewRule({
        body: {
          name: 'Plan',
          target: { kind: 'device', id: device.id },
          condition: { kind: 'subscription', daysBefore: 3 },
          enabled: true,
        },
      }),
    );
    expect([bad.status, bad.body.issues?.[0]?.path]).toEqual([400, 'body.condition.kind']);
  });
});
