import { CLOUD_ENVIRONMENTS, type CloudEnvName } from '../../infra/app';
import { type IdentityProviderSettings, OPENID_CLAIMS, SAML_CLAIMS } from '../../infra/definitions/environments';
import { areaTemplate, liveAliasOf, mentions, resourcesOfType, synthesize, synthesizedTemplates } from './synth';

/**
 * Issue 21's linking rule in the cloud (docs/decisions/037-federated-linking-rule.md): the PreSignUp trigger is wired
 * in every environment, is told the providers trusted for linking, and may do no more to the pool than the rule
 * needs. What is expected is spelled here, apart from COGNITO_TRIGGERS, so that a change to either is noticed.
 */

type Template = ReturnType<typeof synthesize>['templates']['auth'];
type Statement = { Effect?: string; Action: unknown; Resource: unknown };

const functionIdOf = (auth: Template, name: string) => {
  const ids = Object.keys(resourcesOfType(auth, 'AWS::Lambda::Function')).filter((id) =>
    new RegExp(`^${name}Function[0-9A-F]{8}$`).test(id),
  );
  expect(ids).toHaveLength(1);
  return ids[0]!;
};

/** Every statement of every policy attached to the function's role, but its own logs and traces. */
const grantsOf = (auth: Template, functionId: string) => {
  const fn = resourcesOfType(auth, 'AWS::Lambda::Function')[functionId]!;
  const role = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  return Object.values(resourcesOfType(auth, 'AWS::IAM::Policy'))
    .filter((p) => mentions(p.Properties.Roles, role))
    .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement)
    .flatMap((s) =>
      [s.Action]
        .flat()
        .map(String)
        .filter((action) => !/^(logs|xray):/.test(action))
        .map((action) => ({ effect: s.Effect, action, resource: s.Resource })),
    );
};

const poolId = (auth: Template) => {
  const ids = Object.keys(resourcesOfType(auth, 'AWS::Cognito::UserPool'));
  expect(ids).toHaveLength(1);
  return ids[0]!;
};

describe.each(CLOUD_ENVIRONMENTS)('the linking rule in %s, as configured (no providers)', (envName: CloudEnvName) => {
  const auth = synthesizedTemplates(envName).auth;
  const pool = poolId(auth);
  const preSignUp = functionIdOf(auth, 'UsersPreSignUp');
  const identityEvents = functionIdOf(auth, 'UsersIdentityEvents');

  it('runs UsersPreSignUp before every sign-up, through its live alias, beside the identity events', () => {
    const config = resourcesOfType(auth, 'AWS::Cognito::UserPool')[pool]!.Properties.LambdaConfig as Record<
      string,
      unknown
    >;
    expect(Object.keys(config).sort()).toEqual(['PostAuthentication', 'PostConfirmation', 'PreSignUp']);
    const live = liveAliasOf(auth, preSignUp);
    expect(config.PreSignUp).toEqual({ Ref: live });
    expect(config.PostConfirmation).toEqual({ Ref: liveAliasOf(auth, identityEvents) });
    const invokers = Object.values(resourcesOfType(auth, 'AWS::Lambda::Permission')).filter(
      (p) => p.Properties.Principal === 'cognito-idp.amazonaws.com' && mentions(p.Properties.FunctionName, live),
    );
    expect(invokers.length).toBeGreaterThan(0);
    for (const invoker of invokers) expect(invoker.Properties.SourceArn).toEqual({ 'Fn::GetAtt': [pool, 'Arn'] });
  });

  it('tells it that no provider is trusted for linking', () => {
    const fn = resourcesOfType(auth, 'AWS::Lambda::Function')[preSignUp]!;
    const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables.LINKING_TRUSTED_PROVIDERS).toBe('[]');
    // The pool comes in each event: the function naming its pool would be a CloudFormation cycle.
    expect(variables).not.toHaveProperty('USER_POOL_ID');
  });

  it('lets it list users and link a login on this pool only, and nothing else: no table, no other pool', () => {
    const grants = grantsOf(auth, preSignUp);
    expect(grants.map((g) => g.action).sort()).toEqual([
      'cognito-idp:AdminLinkProviderForUser',
      'cognito-idp:ListUsers',
    ]);
    for (const grant of grants) {
      expect(grant).toMatchObject({ effect: 'Allow', resource: { 'Fn::GetAtt': [pool, 'Arn'] } });
    }
  });

  it('lets the identity events add a person to a group on this pool, beside their tables, and nothing more of the pool', () => {
    const onPool = grantsOf(auth, identityEvents).filter((g) => g.action.startsWith('cognito-idp:'));
    expect(onPool).toEqual([
      { effect: 'Allow', action: 'cognito-idp:AdminAddUserToGroup', resource: { 'Fn::GetAtt': [pool, 'Arn'] } },
    ]);
    expect(
      grantsOf(auth, identityEvents).every((g) => /^(cognito-idp|dynamodb):/.test(g.action) && g.effect === 'Allow'),
    ).toBe(true);
  });
});

describe('the linking rule with providers, some trusted', () => {
  const providers: IdentityProviderSettings[] = [
    {
      type: 'google',
      clientId: '1234567890-abcdef.apps.googleusercontent.com',
      clientSecretName: 'device-data/dev/google-client-secret',
      attributeMapping: OPENID_CLAIMS,
      trustedForLinking: true,
    },
    {
      type: 'oidc',
      name: 'NorthsideAir',
      issuerUrl: 'https://id.northside-air.example',
      clientId: 'device-data',
      clientSecretName: 'device-data/dev/northside-client-secret',
      scopes: ['openid', 'email', 'profile'],
      label: 'Northside Air Network',
      attributeMapping: OPENID_CLAIMS,
      trustedForLinking: true,
    },
    {
      type: 'saml',
      name: 'Campus-SAML',
      metadataUrl: 'https://idp.campus.example/metadata.xml',
      attributeMapping: SAML_CLAIMS,
      trustedForLinking: false,
    },
  ];
  const { templates } = synthesize('dev', { settings: { identityProviders: providers } });
  const auth = templates.auth;

  it('tells the trigger the trusted providers by their Cognito names, and not the others', () => {
    const fn = resourcesOfType(auth, 'AWS::Lambda::Function')[functionIdOf(auth, 'UsersPreSignUp')]!;
    const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(JSON.parse(String(variables.LINKING_TRUSTED_PROVIDERS))).toEqual(['Google', 'NorthsideAir']);
  });

  it("tells the users API every provider with the label people read, for how an organization's members sign in", () => {
    const told = Object.values(resourcesOfType(areaTemplate(templates, 'users'), 'AWS::Lambda::Function'))
      .map((fn) => (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables)
      .flatMap((variables) => (variables?.SIGN_IN_PROVIDERS ? [JSON.parse(String(variables.SIGN_IN_PROVIDERS))] : []));
    // The area's API, and its scheduled job, which gets the area's resources and has no use for it (data, no grant).
    expect(told.length).toBeGreaterThan(0);
    for (const providers of told) {
      expect(providers).toEqual([
        { name: 'Google', label: 'Google' },
        { name: 'NorthsideAir', label: 'Northside Air Network' },
        { name: 'Campus-SAML', label: 'Campus-SAML' },
      ]);
    }
  });
});
