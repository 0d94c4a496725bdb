import {
  checkEnvironmentSettings,
  DEVELOPER_ENVIRONMENTS,
  ENVIRONMENTS,
  type EnvironmentSettings,
  environmentSettings,
} from './environments';

describe('environment settings', () => {
  it('answers CORS for a local front end only in developers’ own environments', () => {
    for (const name of ENVIRONMENTS.filter((n) => n !== 'local')) {
      const extra = environmentSettings(name).extraCorsOrigins;
      expect([name, extra]).toEqual([name, DEVELOPER_ENVIRONMENTS.includes(name) ? ['http://localhost:5173'] : []]);
    }
    expect(environmentSettings('preview').extraCorsOrigins).toEqual([]);
    expect(environmentSettings('prod').extraCorsOrigins).toEqual([]);
  });
});

describe('alarm e-mail', () => {
  it('names an address for every environment, each its own, production the operations mailbox itself', () => {
    const addresses = ENVIRONMENTS.map((name) => environmentSettings(name).alarmEmail);
    for (const address of addresses) expect(address).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    expect(new Set(addresses).size).toBe(ENVIRONMENTS.length);
    expect(environmentSettings('prod').alarmEmail).toBe('ops@device-data.app');
  });
});

describe('configuration as data, checked on every synth', () => {
  const API_CERTIFICATE = 'arn:aws:acm:us-west-2:123456789012:certificate/11111111-2222-3333-4444-555555555555';
  const WEB_CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/66666666-7777-8888-9999-000000000000';

  it('gives every environment every required value; only production takes live Stripe keys', () => {
    for (const name of ENVIRONMENTS) {
      const settings = environmentSettings(name);
      expect([name, settings.stripeMode]).toEqual([name, name === 'prod' ? 'live' : 'test']);
      expect(settings.apiThrottling.burstLimit).toBeGreaterThanOrEqual(settings.apiThrottling.rateLimit);
    }
  });

  it('stops on a missing value, naming it', () => {
    const { alarmEmail: _, ...withoutAlarmEmail } = environmentSettings('prod');
    expect(() => checkEnvironmentSettings(withoutAlarmEmail as EnvironmentSettings)).toThrow(
      /^The prod environment's settings are incomplete: alarmEmail: /,
    );
  });

  it('stops on values AWS would refuse at deploy time', () => {
    const prod = environmentSettings('prod');
    const problems = (overrides: Partial<EnvironmentSettings>) => {
      try {
        checkEnvironmentSettings({ ...prod, ...overrides });
        return 'accepted';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(problems({ logRetentionDays: 45 })).toContain('logRetentionDays');
    expect(problems({ apiThrottling: { rateLimit: 100, burstLimit: 10 } })).toContain(
      'apiThrottling: the burst must be at least the rate',
    );
    // CloudFront takes certificates from us-east-1 only; an API's must be in the API's region.
    expect(problems({ webDomain: { name: 'device-data.app', certificateArn: API_CERTIFICATE } })).toContain(
      'webDomain.certificateArn: must be an ACM certificate in us-east-1',
    );
    expect(problems({ apiDomain: { name: 'api.device-data.app', certificateArn: WEB_CERTIFICATE } })).toContain(
      'apiDomain.certificateArn: must be an ACM certificate in us-west-2',
    );
    expect(problems({ apiDomain: { name: 'API.device-data.app', certificateArn: API_CERTIFICATE } })).toContain(
      'apiDomain.name: must be a lower-case domain name',
    );
    expect(
      problems({
        apiDomain: { name: 'api.device-data.app', certificateArn: API_CERTIFICATE },
        webDomain: { name: 'device-data.app', certificateArn: WEB_CERTIFICATE },
      }),
    ).toBe('accepted');
  });
});
