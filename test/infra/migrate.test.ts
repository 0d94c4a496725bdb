import { TABLES } from '../../functions/_shared/tables';
import { MIGRATIONS } from '../../functions/migrate/migrations/catalogue';
import { areaTemplate, mentions, resourcesOfType, synthesizedTemplates } from './synth';

/**
 * Migrations run at deploy time (docs/migrations.md): a custom resource whose properties carry every migration id,
 * so a deploy that adds one runs the runner; the runner may change only the tables its migrations touch.
 */
const templates = synthesizedTemplates('prod');
const template = areaTemplate(templates, 'migrate');

type Resource = { Properties: Record<string, unknown> };
type Statement = { Action: unknown; Resource: unknown };

it('a deploy runs the migrations runner, again whenever a migration is added', () => {
  const runs = Object.values(resourcesOfType(template, 'Custom::MigrationsRunner')) as Resource[];
  expect(runs).toHaveLength(1);
  expect(runs[0]!.Properties.version).toBe(MIGRATIONS.map((migration) => migration.id).join(','));
});

it('the runner writes its own table and the migrated ones, and nothing of the people, devices or billing events', () => {
  const functions = Object.values(resourcesOfType(template, 'AWS::Lambda::Function')) as Resource[];
  const runner = functions.find((fn) => String(fn.Properties.Description).includes('MigrationsRunner'))!;
  expect(runner).toBeDefined();
  expect(runner.Properties.Timeout).toBe(900);
  const roleId = (runner.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const statements = Object.values(resourcesOfType(template, 'AWS::IAM::Policy'))
    .filter((p) => mentions((p as Resource).Properties.Roles, roleId))
    .flatMap((p) => ((p as Resource).Properties.PolicyDocument as { Statement: Statement[] }).Statement);
  const writesOn = (table: keyof typeof TABLES) =>
    statements
      .filter((s) => [s.Resource].flat().some((r) => mentions(r, TABLES[table].constructId)))
      .flatMap((s) => [s.Action].flat().map(String))
      .some((action) => /^dynamodb:(Put|Update|Delete|BatchWrite)/.test(action));
  expect(writesOn('migrations')).toBe(true);
  expect(writesOn('relations')).toBe(true);
  expect(writesOn('deviceSubscriptionHistory')).toBe(true);
  for (const table of ['users', 'devices', 'deviceSubscriptions', 'billingEvents'] as const) {
    expect([table, writesOn(table)]).toEqual([table, false]);
  }
});
