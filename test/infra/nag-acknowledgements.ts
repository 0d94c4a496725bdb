import { Validations } from 'aws-cdk-lib';
import type { NagPack } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/** One acknowledged cdk-nag finding: the rule (with its finding, if any), where it was acknowledged, and why. */
export interface Acknowledgement {
  /** `AwsSolutions-IAM5[Resource::*]`, `Serverless-LambdaDLQ`, … */
  rule: string;
  /** The construct it was acknowledged on; it covers that construct's resources and those below it. */
  path: string;
  reason: string;
}

/** The pack a rule id belongs to (`AwsSolutions`, `Serverless`), or `other` (annotation warnings). */
export const packOf = (rule: string): string => /^(AwsSolutions|Serverless)-/.exec(rule)?.[1] ?? 'other';

/**
 * Every acknowledgement made with `Validations.of(…).acknowledge()` in the tree below `scope`, read from the metadata
 * cdk-nag itself reads (it strips the `annotation::` prefix CDK puts on ids without a known plugin prefix, as here).
 */
export const acknowledgements = (scope: IConstruct): Acknowledgement[] =>
  scope.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY && entry.data)
      .flatMap((entry) =>
        Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({
          rule: id.replace(/^annotation::/i, ''),
          path: construct.node.path,
          reason,
        })),
      ),
  );

/** Whether the construct's own metadata acknowledges `rule`, as cdk-nag compares ids. */
const acknowledgesHere = (construct: IConstruct, rule: string): boolean =>
  construct.node.metadata.some(
    (entry) =>
      entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY &&
      entry.data &&
      Object.keys(entry.data as Record<string, string>).some((id) => id.replace(/^annotation::/i, '') === rule),
  );

/**
 * Runs `pack` over `scope` and returns the acknowledgements that suppressed one of its findings, as `{rule} at
 * {path}`. cdk-nag asks its (private) isAcknowledged for every finding, walking up from the resource to the first
 * construct that acknowledges the rule; the wrapper notes which construct that was.
 */
export const usedAcknowledgements = (pack: NagPack, scope: IConstruct): Set<string> => {
  const checker = pack as unknown as { isAcknowledged?: (resource: IConstruct, rule: string) => boolean };
  const original = checker.isAcknowledged;
  if (typeof original !== 'function') throw new Error('cdk-nag no longer has NagPack.isAcknowledged: update this');
  const used = new Set<string>();
  checker.isAcknowledged = (resource, rule) => {
    const acknowledged = original.call(pack, resource, rule);
    if (acknowledged) {
      let construct: IConstruct | undefined = resource;
      while (construct && !acknowledgesHere(construct, rule)) construct = construct.node.scope;
      if (construct) used.add(`${rule} at ${construct.node.path}`);
    }
    return acknowledged;
  };
  pack.validateScope(scope);
  return used;
};

/**
 * The acknowledgements of one pack as a CI log shows them: each rule with its reason, then the constructs it is
 * acknowledged on (one reason written once for the many functions that share it).
 */
export const formatAcknowledgements = (title: string, list: readonly Acknowledgement[]): string => {
  const groups = new Map<string, { rule: string; reason: string; paths: string[] }>();
  for (const a of list) {
    const key = `${a.rule}\n${a.reason}`;
    const group = groups.get(key) ?? { rule: a.rule, reason: a.reason, paths: [] };
    group.paths.push(a.path);
    groups.set(key, group);
  }
  const sorted = [...groups.values()].sort((a, b) => a.rule.localeCompare(b.rule) || a.reason.localeCompare(b.reason));
  return [
    `${title}: ${list.length} acknowledged`,
    ...sorted.map((g) => [`  ${g.rule}: ${g.reason}`, ...g.paths.sort().map((path) => `      ${path}`)].join('\n')),
  ].join('\n');
};
