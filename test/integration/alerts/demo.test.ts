import { alertsAs } from '../../support/alerts';
import { tokenOf } from '../../support/stack';

/**
 * The demo's alerts (docs/alerts.md, "Demo data"), as its people see them through the gateway on a fresh stack: the
 * rooftop station's PM2.5 rule with the alerts its own readings fired and resolved, and the lake buoy's silence rule.
 */
describe('the demo alerts', () => {
  it("the rooftop station's rule fired and resolved in its history, at the periods its preview finds", async () => {
    const alerts = alertsAs(await tokenOf('user@example.com'));
    const rules = await alerts.listRules({ query: { deviceId: 'demo-device-1' } });
    const rule = rules.items.find((r) => r.name === 'Rooftop PM2.5 over 15')!;
    expect(rule).toMatchObject({
      condition: { kind: 'threshold', measurement: 'pm2_5', above: 15, forSeconds: 1800 },
      enabled: true,
    });
    const history = await alerts.listEvents({ query: { ruleId: rule.id, state: 'resolved', limit: 100 } });
    expect(history.items.length).toBeGreaterThan(0);
    for (const alert of history.items) {
      expect(alert).toMatchObject({ ruleName: rule.name, deviceId: 'demo-device-1', limit: 15, clearLevel: 13.5 });
      expect(alert.resolvedAt!).toBeGreaterThan(alert.firedAt!);
      expect(alert.value!).toBeGreaterThan(15);
    }
    // The same rule's backtest over the same readings finds each period the history holds (within its 7 days).
    const preview = await alerts.previewRule({
      body: { name: rule.name, target: rule.target, condition: rule.condition, enabled: true },
    });
    const previewed = new Set(preview.periods.map((p) => `${p.firedAt}-${p.clearedAt}`));
    const inRange = history.items.filter((a) => a.firedAt! >= preview.from);
    expect(inRange.length).toBeGreaterThan(0);
    for (const alert of inRange) expect(previewed).toContain(`${alert.firedAt}-${alert.resolvedAt}`);
  });

  it('the lake buoy has a silence rule its owner sees', async () => {
    const alerts = alertsAs(await tokenOf('approved@example.com'));
    const rules = await alerts.listRules({ query: { deviceId: 'demo-device-2' } });
    expect(rules.items.find((r) => r.name === 'Lake buoy silent')).toMatchObject({
      target: { kind: 'device', id: 'demo-device-2' },
      condition: { kind: 'silence', afterSeconds: 600 },
    });
  });
});
