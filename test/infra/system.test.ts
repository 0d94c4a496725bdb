import { LOOKUP_TABLES, TABLE_POLICIES } from '../../functions/_shared/table-lookup';
import { TABLES, type TableKey } from '../../functions/_shared/tables';
import { SYSTEM_ENV } from '../../functions/system/deps';
import { SESSION_TABLE } from '../../infra/definitions/services';
import { BUCKETS, QUEUES } from '../../infra/definitions/storage';
import { areaTemplate, mentions, resourcesOfType, synthesizedTemplates } from './synth';

/**
 * The system area (docs/system.md): it writes only its parameters; it reads the look-up's allowed tables by key and
 * nothing else of them, and none of the tables that hold secrets; it lists and deletes the cache files, never reads or
 * writes one; it sends roll-up messages to the sensor-data queue.
 */
const templates = synthesizedTemplates('prod');
const template = areaTemplate(templates, 'system');

type Resource = { Properties: Record<string, unknown> };
type Statement = { Action: unknown; Resource: unknown; Effect?: string };

const functions = Object.values(resourcesOfType(template, 'AWS::Lambda::Function')) as Resource[];
const apiFunction = functions.find((fn) => Object.keys(variablesOf(fn)).includes('PARAMETERS_TABLE'))!;

function variablesOf(fn: Resource): Record<string, unknown> {
  return (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
}

const statements = (): Statement[] => {
  const roleId = (apiFunction.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  return Object.values(resourcesOfType(template, 'AWS::IAM::Policy'))
    .filter((p) => mentions((p as Resource).Properties.Roles, roleId))
    .flatMap((p) => ((p as Resource).Properties.PolicyDocument as { Statement: Statement[] }).Statement);
};

const actionsOn = (table: TableKey) =>
  statements()
    .filter((s) => [s.Resource].flat().some((r) => mentions(r, TABLES[table].constructId)))
    .flatMap((s) => [s.Action].flat().map(String))
    .sort();

describe('the system area’s grants', () => {
  it('is told the name of every table the look-up reads, the chart-data bucket and the sensor-data queue', () => {
    expect(apiFunction).toBeDefined();
    const names = Object.keys(variablesOf(apiFunction));
    expect(names).toEqual(expect.arrayContaining(Object.values(SYSTEM_ENV)));
    expect(names).toEqual(expect.arrayContaining([BUCKETS.chartData.envVar, QUEUES.sensorData.envVar]));
  });

  it('reads the allowed tables by key only, and writes only its parameters', () => {
    for (const table of LOOKUP_TABLES) {
      if (table === 'parameters' || table === SESSION_TABLE) continue;
      expect([table, actionsOn(table)]).toEqual([table, ['dynamodb:BatchGetItem', 'dynamodb:GetItem']]);
    }
    expect(actionsOn('parameters')).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:DeleteItem']));
    // The session record every signed-in request reads: read-only, as every area has it.
    for (const action of actionsOn(SESSION_TABLE))
      expect(action).toMatch(/^dynamodb:(Get|BatchGet|Query|Scan|ConditionCheck|Describe)/);
  });

  it('may not touch any table the look-up refuses, nor any table outside its list', () => {
    const refused = (Object.keys(TABLES) as TableKey[]).filter((t) => !TABLE_POLICIES[t]?.lookup.allowed);
    expect(refused).toEqual(expect.arrayContaining(['deviceCredentials', 'apiKeys', 'notificationPreferences']));
    // The audit log is refused to the look-up, and written and searched by the system area as the log's own reader.
    for (const table of refused.filter((t) => t !== 'auditLog')) expect([table, actionsOn(table)]).toEqual([table, []]);
    expect(actionsOn('auditLog').sort()).toEqual(['dynamodb:PutItem', 'dynamodb:Query']);
  });

  it('lists and deletes cache files, and may not read or write any object', () => {
    const s3 = statements().filter((s) => [s.Action].flat().some((a) => String(a).startsWith('s3:')));
    const actions = s3.flatMap((s) => [s.Action].flat().map(String)).sort();
    expect(actions).toEqual(['s3:DeleteObject', 's3:ListBucket']);
    for (const statement of s3) {
      for (const resource of [statement.Resource].flat()) {
        expect(JSON.stringify(resource)).toContain(BUCKETS.chartData.name('prod'));
      }
    }
  });

  it('sends to the sensor-data queue and no other', () => {
    const sqs = statements().filter((s) => [s.Action].flat().some((a) => String(a).startsWith('sqs:')));
    expect(sqs.length).toBeGreaterThan(0);
    for (const statement of sqs) {
      for (const action of [statement.Action].flat()) expect(String(action)).toMatch(/^sqs:(SendMessage|GetQueue)/);
      expect(JSON.stringify(statement.Resource)).toContain(QUEUES.sensorData.constructId);
    }
  });
});
