import type { Template } from 'aws-cdk-lib/assertions';
import { TABLES } from '../../functions/_shared/tables';
import { AUDIT_LOG_ACCESS, AUDIT_SEARCH_AREA, SERVICE_RESOURCES } from '../../infra/definitions/services';
import { areasWithRoutes } from '../../infra/stacks/api-stack';
import { AUDIT_RETENTION_DAYS } from '../../shared/audit/audit-entry';
import { AREA_NAMES } from '../../shared/contracts/areas';
import { areaTemplate, mentions, resourcesOfType, synthesizedTemplates } from './synth';

/**
 * The audit log is append-only (docs/audit.md, docs/decisions/020-audit-log.md): no role of any stack may update or
 * delete an entry; the areas whose routes are audited may only put, the system area may also Query; nothing reads it
 * by Get or Scan. Walks every role of every template, nested area stacks included.
 */
const templates = synthesizedTemplates('prod');
const all = Object.entries(templates) as [string, Template][];
const audit = TABLES.auditLog;

type Statement = { Effect?: string; Action: unknown; Resource: unknown; Condition?: Record<string, unknown> };
type PolicyResource = { Properties: Record<string, unknown> };

/** Every statement of every IAM policy in a template: inline role policies, policy resources and managed policies. */
const statementsOf = (template: Template): { owner: unknown; statement: Statement }[] => {
  const documents: { owner: unknown; document: unknown }[] = [
    ...Object.values(resourcesOfType(template, 'AWS::IAM::Policy')).map((p) => ({
      owner: (p as PolicyResource).Properties.Roles,
      document: (p as PolicyResource).Properties.PolicyDocument,
    })),
    ...Object.values(resourcesOfType(template, 'AWS::IAM::ManagedPolicy')).map((p) => ({
      owner: (p as PolicyResource).Properties.Roles,
      document: (p as PolicyResource).Properties.PolicyDocument,
    })),
    ...Object.entries(resourcesOfType(template, 'AWS::IAM::Role')).flatMap(([id, role]) =>
      ((role.Properties.Policies as { PolicyDocument: unknown }[] | undefined) ?? []).map((p) => ({
        owner: id,
        document: p.PolicyDocument,
      })),
    ),
  ];
  return documents.flatMap(({ owner, document }) =>
    ((document as { Statement: Statement[] }).Statement ?? []).map((statement) => ({ owner, statement })),
  );
};

const actionsOf = (statement: Statement) => [statement.Action].flat().map(String);
const onAuditLog = (statement: Statement) => [statement.Resource].flat().some((r) => mentions(r, audit.constructId));
const onEverything = (statement: Statement) => [statement.Resource].flat().some((r) => r === '*');

/** The DynamoDB actions an area's API function may take on the audit log. */
const auditActionsOf = (area: (typeof AREA_NAMES)[number]) => {
  const template = areaTemplate(templates, area);
  const fn = Object.entries(resourcesOfType(template, 'AWS::Lambda::Function')).find(([, f]) =>
    String(f.Properties.Description).includes(`the ${area} API`),
  );
  if (!fn) return { actions: [] as string[], statements: [] as Statement[], variables: {} as Record<string, unknown> };
  const roleId = (fn[1].Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const statements = statementsOf(template)
    .filter(({ owner }) => mentions(owner, roleId))
    .map(({ statement }) => statement);
  return {
    actions: statements.filter(onAuditLog).flatMap(actionsOf).sort(),
    statements,
    variables: (fn[1].Properties.Environment as { Variables?: Record<string, unknown> }).Variables ?? {},
  };
};

describe('the audit log table', () => {
  const data = templates.data;
  const table = Object.entries(resourcesOfType(data, 'AWS::DynamoDB::Table')).find(([id]) =>
    id.startsWith(audit.constructId),
  )![1];

  it('is keyed by month and time, with an index by actor, target and action, each sorted by time', () => {
    expect(table.Properties.KeySchema).toEqual([
      { AttributeName: 'month', KeyType: 'HASH' },
      { AttributeName: 'at', KeyType: 'RANGE' },
    ]);
    const indexes = (table.Properties.GlobalSecondaryIndexes as { IndexName: string; KeySchema: unknown }[]).map(
      (index) => [index.IndexName, index.KeySchema],
    );
    expect(indexes).toEqual(
      ['byActor:actorId', 'byTarget:targetId', 'byAction:action'].map((pair) => {
        const [name, key] = pair.split(':');
        return [
          name,
          [
            { AttributeName: key, KeyType: 'HASH' },
            { AttributeName: 'at', KeyType: 'RANGE' },
          ],
        ];
      }),
    );
  });

  it('survives a deleted stack, can be restored to any second of 35 days, and is encrypted', () => {
    const [, resource] = Object.entries(resourcesOfType(data, 'AWS::DynamoDB::Table')).find(([id]) =>
      id.startsWith(audit.constructId),
    )!;
    expect((resource as unknown as { DeletionPolicy: string }).DeletionPolicy).toBe('Retain');
    expect(table.Properties.DeletionProtectionEnabled).toBe(true);
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.Properties.SSESpecification).toEqual({ SSEEnabled: true });
  });

  it(`lets DynamoDB's TTL remove entries only through expiresAt, which the writer sets ${AUDIT_RETENTION_DAYS} days on`, () => {
    expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
  });
});

describe('who may touch the audit log', () => {
  it('no role of any stack may update or delete an entry, or write to every table at once', () => {
    const offending = all.flatMap(([key, template]) =>
      statementsOf(template)
        .filter(({ statement }) => statement.Effect !== 'Deny')
        .flatMap(({ statement }) =>
          actionsOf(statement)
            .filter((action) =>
              onAuditLog(statement)
                ? !['dynamodb:PutItem', 'dynamodb:Query'].includes(action)
                : onEverything(statement) && /^dynamodb:(\*|Put|Update|Delete|BatchWrite|PartiQL)/.test(action),
            )
            .map((action) => `${key}: ${action}`),
        ),
    );
    expect(offending).toEqual([]);
  });

  it.each(AREA_NAMES)(
    'the %s area may put entries only if its routes are audited, and only the search area query them',
    (area) => {
      const expected = [
        ...(AUDIT_LOG_ACCESS[area].append ? ['dynamodb:PutItem'] : []),
        ...(AUDIT_LOG_ACCESS[area].search ? ['dynamodb:Query'] : []),
      ];
      if (!areasWithRoutes().includes(area)) {
        expect(expected).toEqual([]);
        return;
      }
      const { actions, variables } = auditActionsOf(area);
      expect([...new Set(actions)].sort()).toEqual(expected.sort());
      expect(Object.keys(variables).includes(audit.envVar)).toBe(expected.length > 0);
      // The chain reads both at cold start in an area with audited routes (AUDIT_LOG_ENV).
      if (AUDIT_LOG_ACCESS[area].append) expect(Object.keys(variables)).toContain(TABLES.users.envVar);
    },
  );

  it('audits the areas the issue names, and only the system area searches', () => {
    for (const area of ['users', 'system', 'relations', 'devices', 'notifications', 'migrate', 'api'] as const) {
      expect([area, AUDIT_LOG_ACCESS[area].append]).toEqual([area, true]);
    }
    expect(AREA_NAMES.filter((area) => AUDIT_LOG_ACCESS[area].search)).toEqual([AUDIT_SEARCH_AREA]);
    expect(AUDIT_LOG_ACCESS['data-ingress'].append).toBe(false);
    expect(AUDIT_LOG_ACCESS.customer.append).toBe(false);
  });

  it("lets an auditing area without the users table read a staff member's e-mail from it, and no other attribute", () => {
    for (const area of AREA_NAMES.filter((a) => AUDIT_LOG_ACCESS[a].append)) {
      const resources = SERVICE_RESOURCES[area];
      // An area that reads the users table anyway (or looks its items up by key, the system area) needs no e-mail grant.
      if (resources.tables.includes('users') || resources.readTables?.includes('users')) continue;
      if (resources.keyReadTables?.includes('users')) continue;
      const onUsers = auditActionsOf(area).statements.filter((s) =>
        [s.Resource].flat().some((r) => mentions(r, TABLES.users.constructId)),
      );
      expect([area, onUsers.flatMap(actionsOf).sort()]).toEqual([area, ['dynamodb:BatchGetItem', 'dynamodb:GetItem']]);
      for (const statement of onUsers) {
        expect(statement.Condition).toEqual({
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['id', 'email'] },
          StringEqualsIfExists: { 'dynamodb:Select': 'SPECIFIC_ATTRIBUTES' },
        });
      }
    }
  });
});
