import { contentSecurityPolicy } from '../../infra/definitions/web';
import { mentions, resourcesOfType, synthesizedTemplates } from './synth';

/**
 * Spec §9's analytics id as CloudWatch RUM (docs/decisions/040-real-user-monitoring.md): the two environments whose
 * sample rates differ (every environment is built from the same construct). Spelled here, not read from environments.ts: production records a quarter of the sessions, the rest all of them.
 */
const SAMPLE_RATE = { dev: 1, prod: 0.25 } as const;

type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

describe.each(['dev', 'prod'] as const)('%s real-user monitoring', (envName) => {
  const templates = synthesizedTemplates(envName);
  const monitors = Object.entries(resourcesOfType(templates.auth, 'AWS::RUM::AppMonitor'));

  it('has one app monitor for the web domain, without cookies, replays or request capture', () => {
    expect(monitors).toHaveLength(1);
    const [, monitor] = monitors[0]!;
    expect(monitor.Properties.Name).toBe(`device-data-${envName}-web`);
    // The web stack's distribution's domain (neither environment names a web domain of its own).
    expect(monitor.Properties.DomainList).toHaveLength(1);
    expect(mentions(monitor.Properties.DomainList, `DeviceData-${envName}-Web`)).toBe(true);
    expect(mentions(monitor.Properties.DomainList, 'DomainName')).toBe(true);
    const config = monitor.Properties.AppMonitorConfiguration as Record<string, unknown>;
    expect(config.AllowCookies).toBe(false);
    expect(config.SessionSampleRate).toBe(SAMPLE_RATE[envName]);
    expect([...(config.Telemetries as string[])].sort()).toEqual(['errors', 'performance']);
    expect(config.EnableXRay).toBe(false);
  });

  it('sends LCP, CLS and INP per route to CloudWatch', () => {
    const config = monitors[0]![1].Properties.AppMonitorConfiguration as {
      MetricDestinations: { Destination: string; MetricDefinitions: Record<string, unknown>[] }[];
    };
    const [destination] = config.MetricDestinations;
    expect(destination!.Destination).toBe('CloudWatch');
    const byName = Object.fromEntries(destination!.MetricDefinitions.map((d) => [d.Name, d]));
    for (const [name, event] of [
      ['WebVitalsLargestContentfulPaint', 'com.amazon.rum.largest_contentful_paint_event'],
      ['WebVitalsCumulativeLayoutShift', 'com.amazon.rum.cumulative_layout_shift_event'],
      ['WebVitalsInteractionToNextPaint', 'com.amazon.rum.interaction_to_next_paint_event'],
    ]) {
      expect(byName[name!]).toMatchObject({
        ValueKey: 'event_details.value',
        DimensionKeys: { 'metadata.pageId': 'PageId' },
      });
      expect(JSON.parse(byName[name!]!.EventPattern as string)).toEqual({ event_type: [event] });
    }
  });

  it("admits guests to the identity pool, whose guest role may put this monitor's events and nothing else", () => {
    templates.auth.hasResourceProperties('AWS::Cognito::IdentityPool', { AllowUnauthenticatedIdentities: true });
    const roles = Object.entries(resourcesOfType(templates.auth, 'AWS::IAM::Role'));
    const guest = roles.filter(([, role]) => mentions(role.Properties.AssumeRolePolicyDocument, '"unauthenticated"'));
    expect(guest).toHaveLength(1);
    const [guestRoleId, guestRole] = guest[0]!;
    // No managed policy and no inline policy of its own: only what the policies below attach.
    expect(guestRole.Properties.ManagedPolicyArns).toBeUndefined();
    expect(guestRole.Properties.Policies).toBeUndefined();
    const policies = Object.values(resourcesOfType(templates.auth, 'AWS::IAM::Policy')).filter((p) =>
      mentions(p.Properties.Roles, guestRoleId),
    );
    const statements = policies.flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
    expect(statements).toHaveLength(1);
    expect(statements[0]!.Effect).toBe('Allow');
    expect([statements[0]!.Action].flat()).toEqual(['rum:PutRumEvents']);
    expect(JSON.stringify(statements[0]!.Resource)).toContain(`:appmonitor/device-data-${envName}-web`);
    // No other stack grants the guest role anything (the live view's IoT grants go to the signed-in role).
    for (const [key, template] of Object.entries(templates)) {
      if (key === 'auth' || !template) continue;
      for (const policy of Object.values(resourcesOfType(template, 'AWS::IAM::Policy'))) {
        expect(mentions(policy.Properties.Roles, guestRoleId)).toBe(false);
      }
    }
  });

  it("gives the web app the monitor's id, the region's data plane and the identity pool, and lets the page reach it", () => {
    const [writer] = Object.values(resourcesOfType(templates.webConfig, 'Custom::AWS'));
    const create = JSON.stringify(writer!.Properties.Create);
    expect(create).toMatch(/analytics\W+appMonitorId/);
    expect(create).toContain('RealUserMonitoringAppMonitor');
    expect(create).toContain('https://dataplane.rum.us-west-2.amazonaws.com');
    expect(create).toMatch(/sessionSampleRate\W+[\d.]+/);
    const csp = contentSecurityPolicy({ home: 'cloud', region: 'us-west-2', authDomain: 'auth.example.com' });
    expect(csp).toMatch(/connect-src [^;]*https:\/\/dataplane\.rum\.us-west-2\.amazonaws\.com/);
    expect(csp).toMatch(/connect-src [^;]*https:\/\/cognito-identity\.us-west-2\.amazonaws\.com/);
  });

  it("shows each vital's 75th percentile per route on the environment's dashboard", () => {
    const [dashboard] = Object.values(resourcesOfType(templates.operations, 'AWS::CloudWatch::Dashboard'));
    const body = JSON.stringify(dashboard!.Properties.DashboardBody);
    for (const metric of [
      'WebVitalsLargestContentfulPaint',
      'WebVitalsCumulativeLayoutShift',
      'WebVitalsInteractionToNextPaint',
    ]) {
      expect(body).toContain(
        `SEARCH('{AWS/RUM,application_name,PageId} MetricName=\\\\\\"${metric}\\\\\\" application_name=\\\\\\"device-data-${envName}-web\\\\\\"', 'p75', 300)`,
      );
    }
  });
});
