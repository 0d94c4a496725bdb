import {
  checkEnvironmentSettings,
  DEVELOPER_ENVIRONMENTS,
  ENVIRONMENTS,
  type EnvironmentSettings,
  environmentSettings,
  hostedDomainOf,
  type IdentityProviderSettings,
  OPENID_CLAIMS,
  providersTrustedForLinking,
  SAML_CLAIMS,
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

describe('the hosted sign-in as data (issue 21)', () => {
  const AUTH_CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/77777777-8888-9999-0000-111111111111';
  const REGIONAL_CERTIFICATE = 'arn:aws:acm:us-west-2:123456789012:certificate/11111111-2222-3333-4444-555555555555';
  const google: IdentityProviderSettings = {
    type: 'google',
    clientId: '1234567890-abcdef.apps.googleusercontent.com',
    clientSecretName: 'device-data/prod/google-client-secret',
    attributeMapping: OPENID_CLAIMS,
    trustedForLinking: true,
  };
  const oidc: IdentityProviderSettings = {
    type: 'oidc',
    name: 'NorthsideAir',
    issuerUrl: 'https://id.northside-air.example',
    clientId: 'device-data',
    clientSecretName: 'device-data/prod/northside-client-secret',
    scopes: ['openid', 'email', 'profile'],
    attributeMapping: OPENID_CLAIMS,
    trustedForLinking: false,
  };
  const saml: IdentityProviderSettings = {
    type: 'saml',
    name: 'Campus-SAML',
    metadataUrl: 'https://idp.campus.example/metadata.xml',
    attributeMapping: SAML_CLAIMS,
    trustedForLinking: true,
  };
  const problems = (overrides: Partial<EnvironmentSettings>) => {
    try {
      checkEnvironmentSettings({ ...environmentSettings('prod'), ...overrides });
      return 'accepted';
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('gives every environment the prefix domain device-data-{env} and no providers', () => {
    for (const name of ENVIRONMENTS) {
      const settings = environmentSettings(name);
      expect([name, settings.authDomain, settings.identityProviders]).toEqual([
        name,
        { prefix: `device-data-${name}` },
        [],
      ]);
      expect(hostedDomainOf(settings)).toBe(`device-data-${name}.auth.us-west-2.amazoncognito.com`);
    }
  });

  it('accepts a custom auth domain with a us-east-1 certificate and a provider of each kind', () => {
    const settings = { authDomain: { name: 'auth.device-data.app', certificateArn: AUTH_CERTIFICATE } };
    expect(problems({ ...settings, identityProviders: [google, oidc, saml] })).toBe('accepted');
    expect(hostedDomainOf(settings)).toBe('auth.device-data.app');
    expect(providersTrustedForLinking({ identityProviders: [google, oidc, saml] })).toEqual(['Google', 'Campus-SAML']);
  });

  it('refuses what Cognito would refuse at deploy time', () => {
    expect(problems({ authDomain: { name: 'auth.device-data.app', certificateArn: REGIONAL_CERTIFICATE } })).toContain(
      'authDomain',
    );
    expect(problems({ authDomain: { prefix: 'Device_Data' } })).toContain('authDomain');
    expect(problems({ authDomain: { prefix: 'my-cognito-login' } })).toContain('authDomain');
    expect(problems({ identityProviders: [{ ...oidc, issuerUrl: 'http://id.northside-air.example' }] })).toContain(
      'identityProviders.0.issuerUrl',
    );
    expect(problems({ identityProviders: [{ ...oidc, scopes: ['email'] }] })).toContain(
      'identityProviders.0.scopes: must include openid',
    );
    // Cognito (and the CDK) refuse a blank in a provider's name.
    expect(problems({ identityProviders: [{ ...oidc, name: 'Northside Air' }] })).toContain(
      'identityProviders.0.name: must be 3–32 letters, digits, dots or hyphens, no blanks',
    );
    expect(problems({ identityProviders: [{ ...saml, name: 'Google' }] })).toContain(
      'identityProviders.0.name: is a name Cognito reserves',
    );
    expect(problems({ identityProviders: [oidc, { ...saml, name: oidc.name }] })).toContain(
      'identityProviders: each provider needs a name of its own',
    );
    expect(problems({ identityProviders: [{ ...google, clientId: 'not-a-google-client' }] })).toContain(
      'identityProviders.0.clientId',
    );
  });

  it('takes a client secret by the name of one of its own environment’s secrets, never the secret itself', () => {
    expect(
      problems({ identityProviders: [{ ...google, clientSecretName: 'GOCSPX-not-a-name-but-a-secret' }] }),
    ).toContain('identityProviders.0.clientSecretName: must be a Secrets Manager secret name');
    expect(
      problems({ identityProviders: [{ ...oidc, clientSecretName: 'device-data/dev/northside-client-secret' }] }),
    ).toContain("identityProviders.0.clientSecretName: must be one of this environment's secrets, device-data/prod/…");
  });
});
