import { REALTIME_POLICY_NAME } from '../../infra/stacks/realtime-stack';
import { mentions, resourcesOfType, synthesizedTemplates } from './synth';

const templates = synthesizedTemplates('prod');
// biome-ignore lint/suspicious/noTemplateCurlyInString: the IoT policy variable, spelled as AWS reads it
const IDENTITY = '${cognito-identity.amazonaws.com:sub}';

type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

const allIotPolicies = Object.values(resourcesOfType(templates.realtime, 'AWS::IoT::Policy'));
/** The browsers' policy; the devices' policy is tested in sensor-data.test.ts. */
const iotPolicies = allIotPolicies.filter((p) => p.Properties.PolicyName === REALTIME_POLICY_NAME);
const statementsOf = (document: unknown) => (document as { Statement: Statement[] }).Statement;

describe('realtime access', () => {
  it('is the IoT policy named as spec §9 names it, beside the devices’ policy only', () => {
    expect(iotPolicies).toHaveLength(1);
    expect(REALTIME_POLICY_NAME).toBe('IoTPolicyForCognito');
    expect(allIotPolicies.map((p) => p.Properties.PolicyName).sort()).toEqual([
      'IoTPolicyForCognito',
      'device-data-prod-devices',
    ]);
  });

  it('allows only connecting, subscribing and receiving, each scoped to the caller’s own identity', () => {
    const statements = statementsOf(iotPolicies[0]!.Properties.PolicyDocument);
    expect(statements.flatMap((s) => [s.Action].flat()).sort()).toEqual([
      'iot:Connect',
      'iot:Receive',
      'iot:Subscribe',
    ]);
    for (const statement of statements) {
      expect(statement.Effect).toBe('Allow');
      const resource = JSON.stringify(statement.Resource);
      expect(resource).not.toBe('"*"');
      expect(resource).toContain(IDENTITY);
    }
  });

  it("gives the identity pool's signed-in role the same permissions and no more", () => {
    // The identity pool's role lives in the auth stack: the realtime stack names it through a stack output.
    const rolePolicies = Object.values(resourcesOfType(templates.realtime, 'AWS::IAM::Policy')).filter((p) =>
      mentions(p.Properties.Roles, 'IdentityPoolAuthenticatedRole'),
    );
    expect(rolePolicies).toHaveLength(1);
    const actions = statementsOf(rolePolicies[0]!.Properties.PolicyDocument).flatMap((s) => [s.Action].flat());
    expect(actions.sort()).toEqual(['iot:Connect', 'iot:Receive', 'iot:Subscribe']);
  });
});
