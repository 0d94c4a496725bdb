import { TABLES } from '../../functions/_shared/tables';
import { COGNITO_TRIGGERS } from '../../infra/definitions/services';
import { GROUPS } from '../../shared/auth/groups';
import { liveAliasOf, mentions, resourcesOfType, synthesizedTemplates } from './synth';

/** Spec §6, spelled here independently of GROUPS so that a change to either is noticed. */
const SPEC_GROUPS = ['Administrators', 'Employees', 'Distributors', 'Approved_users', 'Authenticated_users', 'None'];

const environments = { prod: synthesizedTemplates('prod'), dev: synthesizedTemplates('dev') };

describe.each(Object.entries(environments))('%s auth', (_, templates) => {
  const auth = templates.auth;

  it("has exactly the spec's six groups, with the precedences of GROUPS", () => {
    const groups = Object.values(resourcesOfType(auth, 'AWS::Cognito::UserPoolGroup')).map((g) => ({
      name: g.Properties.GroupName,
      precedence: g.Properties.Precedence,
    }));
    expect(groups.map((g) => g.name).sort()).toEqual([...SPEC_GROUPS].sort());
    expect(groups).toEqual(expect.arrayContaining(GROUPS.map((g) => ({ name: g.name, precedence: g.precedence }))));
  });

  it('the web client has no secret and signs in with SRP only', () => {
    const clients = Object.values(resourcesOfType(auth, 'AWS::Cognito::UserPoolClient'));
    expect(clients).toHaveLength(1);
    const client = clients[0]!.Properties!;
    expect(client.GenerateSecret).not.toBe(true);
    expect(client.ExplicitAuthFlows).toEqual(
      expect.arrayContaining(['ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']),
    );
    expect(client.ExplicitAuthFlows).not.toContain('ALLOW_USER_PASSWORD_AUTH');
    expect(client.ExplicitAuthFlows).not.toContain('ALLOW_ADMIN_USER_PASSWORD_AUTH');
    expect(client.PreventUserExistenceErrors).toBe('ENABLED');
    // Sign-out revokes the refresh token (Amplify calls RevokeToken when the tokens carry origin_jti, which Cognito
    // adds only with revocation on): the local layer does the same (test/e2e/auth-sessions.test.ts).
    expect(client.EnableTokenRevocation).toBe(true);
  });

  it('signs in by e-mail, verifies it, and offers TOTP', () => {
    auth.hasResourceProperties('AWS::Cognito::UserPool', {
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
    });
  });

  it('tracks every browser, remembers one only when the person asks, and skips TOTP for it as the environment says', () => {
    // Spelled here, not read from environments.ts: production asks for the code every time, the rest trust a
    // remembered browser (docs/decisions/039-remembered-devices.md).
    const skips = auth === environments.dev.auth;
    auth.hasResourceProperties('AWS::Cognito::UserPool', {
      DeviceConfiguration: { ChallengeRequiredOnNewDevice: skips, DeviceOnlyRememberedOnUserPrompt: true },
    });
  });

  it('invokes the identity triggers after sign-in and confirmation, with write access to their tables only', () => {
    const pool = Object.values(resourcesOfType(auth, 'AWS::Cognito::UserPool'))[0]!;
    const config = pool.Properties.LambdaConfig as Record<string, unknown>;
    // PreSignUp: the linking rule's trigger (test/infra/federated-linking.test.ts).
    expect(Object.keys(config).sort()).toEqual(['PostAuthentication', 'PostConfirmation', 'PreSignUp']);
    const [functionId] = Object.entries(resourcesOfType(auth, 'AWS::Lambda::Function')).find(([, f]) =>
      String(f.Properties.Description).includes('UsersIdentityEvents identity triggers'),
    )!;
    // Through the function's live alias (docs/decisions/032-edge-and-gradual-deploys.md).
    expect(mentions(config.PostAuthentication, liveAliasOf(auth, functionId))).toBe(true);
    const permissions = Object.values(resourcesOfType(auth, 'AWS::Lambda::Permission'));
    expect(permissions.some((p) => p.Properties.Principal === 'cognito-idp.amazonaws.com')).toBe(true);
    const resources = Object.values(resourcesOfType(auth, 'AWS::IAM::Policy'))
      .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement)
      .filter((s) => [s.Action].flat().some((a) => String(a).startsWith('dynamodb:')))
      .flatMap((s) => [s.Resource].flat());
    const allowed = COGNITO_TRIGGERS.flatMap((t) => t.tables.map((table) => TABLES[table].constructId));
    for (const resource of resources) expect(allowed.some((id) => mentions(resource, id))).toBe(true);
  });
});

describe('threat protection', () => {
  it('is enforced in prod', () => {
    environments.prod.auth.hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolTier: 'PLUS',
      UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
    });
  });

  it('is off elsewhere', () => {
    const pool = Object.values(resourcesOfType(environments.dev.auth, 'AWS::Cognito::UserPool'))[0]!;
    expect(pool.Properties.UserPoolAddOns).toBeUndefined();
  });
});
