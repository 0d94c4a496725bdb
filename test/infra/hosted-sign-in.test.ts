import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { CLOUD_ENVIRONMENTS, type CloudEnvName } from '../../infra/app';
import {
  environmentSettings,
  type IdentityProviderSettings,
  OPENID_CLAIMS,
  SAML_CLAIMS,
} from '../../infra/definitions/environments';
import { resourcesOfType, synthesize } from './synth';

/**
 * Issue 21's hosted sign-in in the cloud. What is expected is spelled here, apart from the definitions (the paths,
 * the scopes, the developers' environments), so that a change to either side is noticed.
 */
const DEVELOPER_ENVIRONMENTS_SPELLED = ['dev', 'dev-1', 'dev-2'];
const LOCAL_ORIGIN = 'http://localhost:5173';
// The account page's own calls need the Cognito self-service scope (shared/auth/hosted-sign-in.ts).
const SCOPES = ['aws.cognito.signin.user.admin', 'email', 'openid', 'profile'];

const WEB_CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/66666666-7777-8888-9999-000000000000';
const AUTH_CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/77777777-8888-9999-0000-111111111111';

type Properties = Record<string, unknown>;

const onlyOf = (template: Parameters<typeof resourcesOfType>[0], type: string) => {
  const resources = Object.entries(resourcesOfType(template, type));
  expect([type, resources.length]).toEqual([type, 1]);
  const [id, resource] = resources[0]!;
  return { id, properties: resource.Properties as Properties, dependsOn: [resource.DependsOn ?? []].flat() };
};

/**
 * A callback or sign-out URL as text: a literal stays as it is; the distribution's generated name, which reaches the
 * auth stack as a (weak) read of the web stack's output, reads `{distribution}`.
 */
const urlText = (value: unknown): string => {
  if (typeof value === 'string') return value;
  const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (!join) throw new Error(`Not a URL: ${JSON.stringify(value)}`);
  return join[1]
    .map((part) => {
      if (typeof part === 'string') return part;
      const output = (part as { 'Fn::GetStackOutput'?: { StackName: string; OutputName: string } })[
        'Fn::GetStackOutput'
      ];
      if (output?.StackName.endsWith('-Web') && /Distribution.*DomainName/.test(output.OutputName)) {
        return '{distribution}';
      }
      throw new Error(`Unexpected part of a URL: ${JSON.stringify(part)}`);
    })
    .join(join[0]);
};

describe.each(CLOUD_ENVIRONMENTS)('the hosted sign-in of %s, as configured (no providers)', (envName: CloudEnvName) => {
  const { templates, stacks } = synthesize(envName);
  const auth = templates.auth;
  const client = () => onlyOf(auth, 'AWS::Cognito::UserPoolClient');

  it('has the Cognito prefix domain device-data-{env}, classic hosted UI, no certificate', () => {
    expect(environmentSettings(envName).authDomain).toEqual({ prefix: `device-data-${envName}` });
    const domain = onlyOf(auth, 'AWS::Cognito::UserPoolDomain').properties;
    expect(domain.Domain).toBe(`device-data-${envName}`);
    expect(domain.CustomDomainConfig).toBeUndefined();
    expect(domain.ManagedLoginVersion).toBe(1);
    expect(stacks.auth.hostedSignIn.domain).toBe(`device-data-${envName}.auth.us-west-2.amazoncognito.com`);
  });

  it('lets the web client use the authorization-code grant alone, with openid, email, profile and self-service', () => {
    const properties = client().properties;
    expect(properties.AllowedOAuthFlows).toEqual(['code']);
    expect(properties.AllowedOAuthFlowsUserPoolClient).toBe(true);
    expect([...(properties.AllowedOAuthScopes as string[])].sort()).toEqual(SCOPES);
    expect(properties.GenerateSecret).not.toBe(true);
    expect(properties.SupportedIdentityProviders).toEqual(['COGNITO']);
  });

  it('never allows the implicit grant or client credentials', () => {
    const flows = Object.values(resourcesOfType(auth, 'AWS::Cognito::UserPoolClient')).flatMap(
      (c) => (c.Properties.AllowedOAuthFlows as string[] | undefined) ?? [],
    );
    expect(flows).not.toContain('implicit');
    expect(flows).not.toContain('client_credentials');
  });

  it(`redirects to the distribution's origin${DEVELOPER_ENVIRONMENTS_SPELLED.includes(envName) ? ' and the local dev server' : ' only'}`, () => {
    const properties = client().properties;
    const local = DEVELOPER_ENVIRONMENTS_SPELLED.includes(envName);
    expect((properties.CallbackURLs as unknown[]).map(urlText)).toEqual([
      'https://{distribution}/auth/callback',
      ...(local ? [`${LOCAL_ORIGIN}/auth/callback`] : []),
    ]);
    expect((properties.LogoutURLs as unknown[]).map(urlText)).toEqual([
      'https://{distribution}/login',
      ...(local ? [`${LOCAL_ORIGIN}/login`] : []),
    ]);
    // The output read is the web stack's own distribution's.
    expect(JSON.stringify(properties.CallbackURLs)).toContain(`"StackName":"${stacks.web.stackName}"`);
  });

  it("tells the web app the hosted sign-in's domain, scopes, URLs and (no) providers", () => {
    const [resource] = Object.values(resourcesOfType(templates.webConfig, 'Custom::AWS'));
    const create = JSON.stringify(resource!.Properties.Create);
    // The runtime config is JSON inside the custom resource's JSON: its quotes are escaped twice.
    const quoted = (text: string) => JSON.stringify(JSON.stringify(text).slice(1, -1)).slice(1, -1);
    expect(create).toContain(quoted(`"origin":"https://device-data-${envName}.auth.us-west-2.amazoncognito.com"`));
    expect(create).toContain(quoted('"scopes":["openid","email","profile","aws.cognito.signin.user.admin"]'));
    expect(create).toContain(quoted('"providers":[]'));
    expect(create).toContain(quoted('/auth/callback'));
    expect(stacks.auth.hostedSignIn.providers).toEqual([]);
  });
});

/** Providers of every kind, as an operator would configure them (README, "Enabling a sign-in provider"). */
const providersOf = (envName: CloudEnvName): IdentityProviderSettings[] => [
  {
    type: 'google',
    clientId: '1234567890-abcdef.apps.googleusercontent.com',
    clientSecretName: `device-data/${envName}/google-client-secret`,
    attributeMapping: OPENID_CLAIMS,
    trustedForLinking: true,
  },
  {
    type: 'oidc',
    name: 'NorthsideAir',
    label: 'Northside Air Network',
    issuerUrl: 'https://id.northside-air.example',
    clientId: 'device-data',
    clientSecretName: `device-data/${envName}/northside-client-secret`,
    scopes: ['openid', 'email', 'profile'],
    attributeMapping: OPENID_CLAIMS,
    trustedForLinking: false,
  },
  {
    type: 'saml',
    name: 'Campus-SAML',
    metadataUrl: 'https://idp.campus.example/metadata.xml',
    attributeMapping: SAML_CLAIMS,
    trustedForLinking: false,
  },
];

describe.each([
  ['prod', { webDomain: { name: 'device-data.app', certificateArn: WEB_CERTIFICATE } }],
  ['dev', {}],
] as const)('%s with a custom auth domain and an identity provider of each kind', (envName, domains) => {
  const { app, templates, stacks } = synthesize(envName, {
    settings: {
      ...domains,
      authDomain: { name: `auth.${envName}.device-data.app`, certificateArn: AUTH_CERTIFICATE },
      identityProviders: providersOf(envName),
    },
  });
  const auth = templates.auth;
  const providers = Object.entries(resourcesOfType(auth, 'AWS::Cognito::UserPoolIdentityProvider'));
  const providerNamed = (name: string) => {
    const found = providers.find(([, p]) => p.Properties.ProviderName === name);
    if (!found) throw new Error(`No identity provider ${name}`);
    return { id: found[0], properties: found[1].Properties as Properties };
  };

  it("answers on the custom domain with its us-east-1 certificate, and outputs the domain's DNS target", () => {
    const domain = onlyOf(auth, 'AWS::Cognito::UserPoolDomain').properties;
    expect(domain.Domain).toBe(`auth.${envName}.device-data.app`);
    expect(domain.CustomDomainConfig).toEqual({ CertificateArn: AUTH_CERTIFICATE });
    expect(stacks.auth.hostedSignIn.domain).toBe(`auth.${envName}.device-data.app`);
    auth.hasOutput('HostedSignInDomainTarget', {});
    // The web app exchanges the code at this domain's token endpoint: its CSP must let it connect there.
    const [policy] = Object.values(resourcesOfType(templates.web, 'AWS::CloudFront::ResponseHeadersPolicy'));
    const csp = JSON.stringify(policy!.Properties.ResponseHeadersPolicyConfig);
    expect(csp).toMatch(new RegExp(`connect-src [^;]*https://auth\\.${envName}\\.device-data\\.app[ ;]`));
  });

  it('creates each provider with its attribute mapping', () => {
    expect(providers).toHaveLength(3);
    const standard = {
      email: 'email',
      given_name: 'given_name',
      family_name: 'family_name',
      email_verified: 'email_verified',
    };
    expect(providerNamed('Google').properties).toMatchObject({ ProviderType: 'Google', AttributeMapping: standard });
    expect(providerNamed('Google').properties.ProviderDetails).toMatchObject({
      client_id: '1234567890-abcdef.apps.googleusercontent.com',
      authorize_scopes: 'openid email profile',
    });
    expect(providerNamed('NorthsideAir').properties).toMatchObject({
      ProviderType: 'OIDC',
      AttributeMapping: standard,
      ProviderDetails: expect.objectContaining({
        client_id: 'device-data',
        oidc_issuer: 'https://id.northside-air.example',
        authorize_scopes: 'openid email profile',
      }),
    });
    expect(providerNamed('Campus-SAML').properties).toMatchObject({
      ProviderType: 'SAML',
      AttributeMapping: {
        email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
        given_name: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
        family_name: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
      },
      ProviderDetails: { MetadataURL: 'https://idp.campus.example/metadata.xml' },
    });
  });

  it('reads every client secret from Secrets Manager at deploy time: a dynamic reference, never a value', () => {
    for (const [name, secret] of [
      ['Google', 'google-client-secret'],
      ['NorthsideAir', 'northside-client-secret'],
    ]) {
      const details = providerNamed(name!).properties.ProviderDetails as Properties;
      expect(details.client_secret).toBe(`{{resolve:secretsmanager:device-data/${envName}/${secret}:SecretString:::}}`);
    }
    expect(providerNamed('Campus-SAML').properties.ProviderDetails).not.toHaveProperty('client_secret');
  });

  it('lets the client sign in through each provider, created before it', () => {
    const client = onlyOf(auth, 'AWS::Cognito::UserPoolClient');
    expect(client.properties.SupportedIdentityProviders).toEqual(['COGNITO', 'Google', 'NorthsideAir', 'Campus-SAML']);
    for (const [id] of providers) expect(client.dependsOn).toContain(id);
    expect(client.properties.AllowedOAuthFlows).toEqual(['code']);
    // The sign-in page's buttons: Cognito's name, and the label the operator gave (the name without one).
    expect(stacks.auth.hostedSignIn.providers).toEqual([
      { name: 'Google', label: 'Google' },
      { name: 'NorthsideAir', label: 'Northside Air Network' },
      { name: 'Campus-SAML', label: 'Campus-SAML' },
    ]);
  });

  it('redirects to the environment’s web origin (and, in a developers’ environment, the local dev server)', () => {
    const client = onlyOf(auth, 'AWS::Cognito::UserPoolClient').properties;
    const origin = envName === 'prod' ? 'https://device-data.app' : 'https://{distribution}';
    const local = envName === 'dev' ? [LOCAL_ORIGIN] : [];
    expect((client.CallbackURLs as unknown[]).map(urlText)).toEqual(
      [origin, ...local].map((o) => `${o}/auth/callback`),
    );
    expect((client.LogoutURLs as unknown[]).map(urlText)).toEqual([origin, ...local].map((o) => `${o}/login`));
  });

  it('passes both cdk-nag packs with no unacknowledged finding', () => {
    for (const pack of [new AwsSolutionsChecks(), new ServerlessChecks()]) {
      const findings = pack
        .validateScope(app)
        .violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath}`));
      expect(findings).toEqual([]);
    }
  });
});
