import { CLOUD_ENVIRONMENTS, type CloudEnvName } from '../../infra/app';
import { environmentSettings } from '../../infra/definitions/environments';
import { ROUTE_THROTTLES, THROTTLE_CLASSES, throttledRoutes } from '../../infra/definitions/route-throttles';
import { areasWithRoutes } from '../../infra/stacks/api-stack';
import { AREAS, type AreaName } from '../../shared/contracts/areas';
import { normalizePath } from '../../shared/contracts/define-route';
import { areaTemplate, resourcesOfType, synthesizedTemplates, type Templates } from './synth';

/** API Gateway's `ResourcePath` of a method setting: the path with every `/` written `~1`. */
const resourcePath = (path: string) => `/${normalizePath(path).replaceAll('/', '~1')}`;

const stageSettings = (templates: Templates, area: AreaName) => {
  const stages = Object.values(resourcesOfType(areaTemplate(templates, area), 'AWS::ApiGateway::Stage'));
  expect(stages).toHaveLength(1);
  return stages[0]!.Properties.MethodSettings as Record<string, unknown>[];
};

describe('the table of throttled routes', () => {
  it('names only routes the contracts define, and throttles sign-up-adjacent, signing and background routes', () => {
    for (const { area, key } of throttledRoutes()) {
      expect([area, key, key in (AREAS[area]?.routes ?? {})]).toEqual([area, key, true]);
    }
    const classes = new Set(throttledRoutes().map((r) => r.throttleClass));
    expect([...classes].sort()).toEqual([...THROTTLE_CLASSES].sort());
    // The routes the issue names: downloads (signed URLs), exports, dataset builds, and the public invitation look-up.
    expect(ROUTE_THROTTLES.api?.aws).toBe('signing');
    expect(ROUTE_THROTTLES['sensor-data']?.createExport).toBe('background');
    expect(ROUTE_THROTTLES.datasets?.createDataset).toBe('background');
    expect(ROUTE_THROTTLES.users?.getInvite).toBe('public');
  });

  it.each(CLOUD_ENVIRONMENTS)('sets every class in %s below its stage', (envName) => {
    const settings = environmentSettings(envName);
    for (const throttleClass of THROTTLE_CLASSES) {
      const t = settings.routeThrottling[throttleClass];
      expect(t.rateLimit).toBeLessThanOrEqual(settings.apiThrottling.rateLimit);
      expect(t.burstLimit).toBeLessThanOrEqual(settings.apiThrottling.burstLimit);
      expect(t.burstLimit).toBeGreaterThanOrEqual(t.rateLimit);
    }
  });

  it('refuses a class above the stage, naming the field', () => {
    const wide = { rateLimit: 10_000, burstLimit: 20_000 };
    expect(() =>
      environmentSettings('dev', {
        routeThrottling: { ...environmentSettings('dev').routeThrottling, background: wide },
      }),
    ).toThrow(/routeThrottling: a route's throttle must not exceed its stage's/);
  });
});

describe.each(['prod', 'dev'] as CloudEnvName[])('per-route throttles in %s', (envName) => {
  const templates = synthesizedTemplates(envName);
  const settings = environmentSettings(envName);

  it.each(throttledRoutes().map((r) => [`${r.area}.${r.key}`, r] as const))(
    '%s has a method setting at its class rate, with logging and metrics kept on',
    (_name, { area, key, throttleClass }) => {
      const route = AREAS[area].routes[key as keyof (typeof AREAS)[typeof area]['routes']] as {
        path: string;
        method: string;
      };
      const expected = settings.routeThrottling[throttleClass];
      expect(stageSettings(templates, area)).toContainEqual({
        HttpMethod: route.method,
        ResourcePath: resourcePath(route.path),
        ThrottlingRateLimit: expected.rateLimit,
        ThrottlingBurstLimit: expected.burstLimit,
        MetricsEnabled: true,
        LoggingLevel: 'ERROR',
        DataTraceEnabled: false,
      });
    },
  );

  it('throttles no other method below the stage', () => {
    for (const area of areasWithRoutes()) {
      const expected = throttledRoutes().filter((r) => r.area === area).length;
      // One stage-wide setting, plus one per throttled route of the area.
      expect([area, stageSettings(templates, area).length]).toEqual([area, expected + 1]);
    }
  });
});
