import { Match } from 'aws-cdk-lib/assertions';
import { environmentSettings, hostedDomainOf } from '../../infra/definitions/environments';
import {
  contentSecurityPolicy,
  cspDirectives,
  WEB_CACHE_CONTROL,
  WEB_SECURITY_HEADERS,
} from '../../infra/definitions/web';
import { RuntimeConfig } from '../../shared/config/runtime-config';
import { deviceAuthorizerName, readingsRuleName } from '../../shared/iot/topics';
import { resourcesOfType, synthesizedTemplates } from './synth';

const ENV = 'prod';
const templates = synthesizedTemplates(ENV);
const PROD_AUTH_DOMAIN = hostedDomainOf(environmentSettings('prod'));

describe('web hosting', () => {
  it('serves the private site bucket through CloudFront with origin access control, over HTTPS only', () => {
    templates.web.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultRootObject: 'index.html',
        DefaultCacheBehavior: Match.objectLike({ ViewerProtocolPolicy: 'https-only' }),
        Origins: [Match.objectLike({ OriginAccessControlId: Match.anyValue(), S3OriginConfig: Match.anyValue() })],
        Logging: Match.objectLike({ Bucket: Match.anyValue() }),
      }),
    });
    templates.web.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
  });

  it('falls back to index.html for client-side routes', () => {
    templates.web.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        CustomErrorResponses: Match.arrayWith([
          Match.objectLike({ ErrorCode: 403, ResponseCode: 200, ResponsePagePath: '/index.html' }),
          Match.objectLike({ ErrorCode: 404, ResponseCode: 200, ResponsePagePath: '/index.html' }),
        ]),
      }),
    });
  });

  it('keeps the deployed build from overwriting or pruning the runtime configuration', () => {
    templates.web.hasResourceProperties('Custom::CDKBucketDeployment', {
      Exclude: Match.arrayWith(['runtime-config.json']),
    });
  });

  it('sends the security headers of infra/definitions/web.ts, which the local production server sends too', () => {
    const policies = Object.entries(resourcesOfType(templates.web, 'AWS::CloudFront::ResponseHeadersPolicy'));
    expect(policies).toHaveLength(1);
    const [policyId, policy] = policies[0]!;
    const { strictTransportSecurity: hsts, frameOptions, referrerPolicy, xssProtection } = WEB_SECURITY_HEADERS;
    expect(
      (policy.Properties.ResponseHeadersPolicyConfig as { SecurityHeadersConfig: unknown }).SecurityHeadersConfig,
    ).toEqual({
      StrictTransportSecurity: {
        AccessControlMaxAgeSec: hsts.maxAgeSeconds,
        IncludeSubdomains: hsts.includeSubdomains,
        Preload: hsts.preload,
        Override: true,
      },
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: frameOptions, Override: true },
      ReferrerPolicy: { ReferrerPolicy: referrerPolicy, Override: true },
      XSSProtection: { Protection: xssProtection.protection, ModeBlock: xssProtection.modeBlock, Override: true },
      ContentSecurityPolicy: {
        ContentSecurityPolicy: contentSecurityPolicy({
          home: 'cloud',
          region: 'us-west-2',
          authDomain: PROD_AUTH_DOMAIN,
        }),
        Override: true,
      },
    });
    // Issue 19: no inline or eval'd script, never framed, HSTS for the domain and its subdomains.
    const csp = cspDirectives({ home: 'cloud', region: 'us-west-2', authDomain: PROD_AUTH_DOMAIN });
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(Object.values(csp).flat()).not.toContain('http://localhost:*');
    expect(
      contentSecurityPolicy({ home: 'cloud', region: 'us-west-2', authDomain: PROD_AUTH_DOMAIN }).length,
    ).toBeLessThanOrEqual(1783);
    expect([frameOptions, hsts.includeSubdomains, hsts.maxAgeSeconds >= 31_536_000]).toEqual(['DENY', true, true]);
    templates.web.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultCacheBehavior: Match.objectLike({ ResponseHeadersPolicyId: { Ref: policyId } }),
      }),
    });
  });

  it('caches hashed assets for good, keeps earlier ones for open tabs, and has index.html revalidated', () => {
    templates.web.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketKeyPrefix: 'assets/',
      Prune: false,
      SystemMetadata: { 'cache-control': WEB_CACHE_CONTROL.hashedAssets },
    });
    templates.web.hasResourceProperties('Custom::CDKBucketDeployment', {
      Exclude: ['runtime-config.json', 'assets/*'],
      SystemMetadata: { 'cache-control': WEB_CACHE_CONTROL.other },
      DistributionPaths: ['/*'],
    });
  });
});

describe('runtime configuration', () => {
  const writers = Object.values(resourcesOfType(templates.webConfig, 'Custom::AWS'));

  it('is written as a RuntimeConfig for SRP sign-in', () => {
    expect(writers).toHaveLength(1);
    const create = JSON.stringify(writers[0]!.Properties.Create);
    for (const part of ['"Key\\":\\"runtime-config.json', 'USER_SRP_AUTH', 'apiBaseUrls', 'userPoolClientId']) {
      expect(create).toContain(part);
    }
    // Spec §9: the session and token cookies are same-site strict and secure in the cloud.
    expect(create).toMatch(/cookies\W+secure\W+true\W+sameSite\W+strict/);
    // The live view signs its IoT Core connection with the identity pool's credentials.
    expect(create).toContain('identityPoolId');
    expect(create).toMatch(/realtimeUrl\W+wss:\/\//);
    expect(create).toContain('/mqtt');
    // The device page's connection details name this environment's authorizer and readings rule (decisions 031, 043).
    expect(create).toMatch(/mqttUrl\W+mqtts:\/\//);
    expect(create).toContain(`x-amz-customauthorizer-name=${deviceAuthorizerName(ENV)}`);
    expect(create).toMatch(new RegExp(`readingsRule\\W+${readingsRuleName(ENV)}\\W`));
    // The shape itself is checked by the compiler (`satisfies RuntimeConfig`); the schema names the fields.
    expect(Object.keys(RuntimeConfig.shape)).toEqual(expect.arrayContaining(['env', 'region', 'apiBaseUrls', 'auth']));
  });

  it('may write that one object and nothing else of the site', () => {
    const statements = Object.values(resourcesOfType(templates.webConfig, 'AWS::IAM::Policy')).flatMap(
      (p) => (p.Properties.PolicyDocument as { Statement: { Action: unknown; Resource: unknown }[] }).Statement,
    );
    expect(statements).toHaveLength(1);
    expect(JSON.stringify(statements[0]!.Resource)).toMatch(/\/runtime-config\.json"?\]?\]?\}?$/);
  });
});
