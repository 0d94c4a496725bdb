import { TABLES } from '../../functions/_shared/tables';
import { API_ENV } from '../../functions/api/deps';
import { SENSOR_DATA_ENV } from '../../functions/sensor-data/deps';
import type { AreaName } from '../../shared/contracts/areas';
import { areaTemplate, mentions, resourcesOfType, synthesizedTemplates } from './synth';

/**
 * Tier features as data (docs/sensor-data.md): the areas that decide what a caller may do with a device read the
 * system area's `tier-features` parameter, and only the system area may change it.
 */
const templates = synthesizedTemplates('prod');
const parameters = TABLES.parameters;

type Resource = { Properties: Record<string, unknown> };
type Statement = { Action: unknown; Resource: unknown };

/** Every Lambda of an area with the DynamoDB actions its role may take on the parameters table. */
const parameterActions = (area: AreaName) => {
  const template = areaTemplate(templates, area);
  const policies = Object.values(resourcesOfType(template, 'AWS::IAM::Policy'));
  return Object.values(resourcesOfType(template, 'AWS::Lambda::Function')).map((fn) => {
    const f = fn as Resource;
    const roleId = (f.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const actions = policies
      .filter((p) => mentions(p.Properties.Roles, roleId))
      .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement)
      .filter((s) => [s.Resource].flat().some((r) => mentions(r, parameters.constructId)))
      .flatMap((s) => [s.Action].flat().map(String));
    const variables = (f.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
    return { description: String(f.Properties.Description), actions, variables: variables ?? {} };
  });
};

describe.each<[AreaName, Record<string, string>]>([
  ['sensor-data', SENSOR_DATA_ENV],
  ['api', API_ENV],
])('the %s area', (area, env) => {
  it('reads the parameters table (for the tier table) and is told its name', () => {
    expect(Object.values(env)).toContain(parameters.envVar);
    const functions = parameterActions(area);
    expect(functions.length).toBeGreaterThan(0);
    for (const fn of functions) {
      expect(fn.actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:BatchGetItem']));
      expect(Object.keys(fn.variables)).toContain(parameters.envVar);
    }
  });

  it('may not write it', () => {
    for (const fn of parameterActions(area)) {
      for (const action of fn.actions) {
        expect(action).toMatch(/^dynamodb:(Get|BatchGet|Query|Scan|ConditionCheck|Describe)/);
      }
    }
  });
});

it('lets the system area write the parameters table (the editor saves through it)', () => {
  const actions = parameterActions('system').flatMap((fn) => fn.actions);
  expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:DeleteItem']));
});
