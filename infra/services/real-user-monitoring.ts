import { Stack } from 'aws-cdk-lib';
import { type IRole, Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { CfnAppMonitor } from 'aws-cdk-lib/aws-rum';
import { Construct } from 'constructs';
import type { RuntimeConfig } from '../../shared/config/runtime-config';
import { WEB_VITALS } from '../../shared/operations/web-vitals';
import type { EnvironmentSettings } from '../definitions/environments';
import { rumEndpoint } from '../definitions/web';

/** The app monitor's name: the dashboard's metrics name it (`application_name`). */
export const appMonitorName = (env: string): string => `device-data-${env}-web`;

/** Props of {@link RealUserMonitoring}. */
export interface RealUserMonitoringProps {
  settings: EnvironmentSettings;
  /** The host name the web app is served on (the environment's web domain or the distribution's). */
  webDomain: string;
  identityPoolId: string;
  /** The identity pool's guest role: what a visitor who is not signed in reports with. */
  guestRole: IRole;
  /** The identity pool's signed-in role. */
  authenticatedRole: IRole;
}

/**
 * Spec §9's analytics id as CloudWatch RUM (docs/decisions/040-real-user-monitoring.md): one app monitor per
 * environment for the web app's domain, recording page views, JavaScript errors and the Core Web Vitals, with no
 * cookies and no session replay. Each vital is also sent per route (`PageId`, the route's pattern, never an object's
 * id), which the operations dashboard shows. The identity pool's guest and signed-in roles may put events into this
 * monitor and nothing else.
 */
export class RealUserMonitoring extends Construct {
  /** What the web app's runtime configuration carries (`analytics`). */
  readonly analytics: NonNullable<RuntimeConfig['analytics']>;

  constructor(scope: Construct, id: string, props: RealUserMonitoringProps) {
    super(scope, id);
    const { settings } = props;
    const monitor = new CfnAppMonitor(this, 'AppMonitor', {
      name: appMonitorName(settings.name),
      domainList: [props.webDomain],
      // Events are kept in CloudWatch Logs too, for the queries a metric cannot answer (which page, which error).
      cwLogEnabled: true,
      appMonitorConfiguration: {
        allowCookies: false,
        enableXRay: false,
        identityPoolId: props.identityPoolId,
        guestRoleArn: props.guestRole.roleArn,
        sessionSampleRate: settings.realUserMonitoring.sessionSampleRate,
        telemetries: ['performance', 'errors'],
        metricDestinations: [
          {
            destination: 'CloudWatch',
            metricDefinitions: WEB_VITALS.map((vital) => ({
              name: vital.metric,
              valueKey: 'event_details.value',
              unitLabel: vital.unit,
              dimensionKeys: { 'metadata.pageId': 'PageId' },
              eventPattern: JSON.stringify({ event_type: [vital.eventType] }),
            })),
          },
        ],
      },
    });

    const region = Stack.of(this).region;
    const account = Stack.of(this).account;
    const putEvents = new PolicyStatement({
      actions: ['rum:PutRumEvents'],
      resources: [`arn:${Stack.of(this).partition}:rum:${region}:${account}:appmonitor/${monitor.name}`],
    });
    new Policy(this, 'PutEvents', {
      statements: [putEvents],
      roles: [props.guestRole, props.authenticatedRole],
    });

    this.analytics = {
      appMonitorId: monitor.attrId,
      endpoint: rumEndpoint(region),
      sessionSampleRate: settings.realUserMonitoring.sessionSampleRate,
      identityPoolId: props.identityPoolId,
    };
  }
}
