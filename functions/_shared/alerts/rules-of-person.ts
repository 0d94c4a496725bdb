import type { AlertTarget } from '../../../shared/contracts/alerts';
import { MESSAGES } from '../../../shared/messages';
import type { RelationType } from '../../../shared/relations/relation-types';
import { Conflict } from '../errors';
import type { Log } from '../logger';
import { readAll } from '../paging';
import type { RelationTable } from '../relations/relation-table';
import type { StoredRule } from './alert-model';
import type { RuleTable } from './rule-table';
import { devicesOfTarget } from './rule-targets';
import type { StateTable } from './state-table';
import { touchTargets } from './target-touches';

export interface RulesOfPersonDeps {
  rules: Pick<RuleTable, 'byCreator' | 'byTarget' | 'replace' | 'remove'>;
  states: Pick<StateTable, 'touch' | 'bumpGeneration'>;
  relations: Pick<RelationTable, 'queryAll'>;
  now: () => number;
  log: Log;
}

/** The relations through which a person may be a recipient of a target's rules (a recipient must see the target). */
const TARGET_OF: Partial<Record<RelationType, AlertTarget['kind']>> = {
  'device-owner': 'device',
  'device-administrator': 'device',
  'device-user': 'device',
  'campaign-manager': 'campaign',
  'campaign-user': 'campaign',
  'campaign-participant': 'campaign',
  'organization-manager': 'organization',
  'organization-user': 'organization',
  'organization-participant': 'organization',
};

const PAGE = 100;

/**
 * What account deletion removes of a person in the alerts area (docs/users.md, "The purge"; docs/alerts.md): every
 * rule they made, and their place among the recipients of others' rules on the objects they hold a relation to. Run
 * before the person's relations go (they say where the person may be a recipient). Idempotent: a rule is switched
 * off first and removed last, so a run cut short leaves rules the next run finds again, and the sweep closes their
 * open alerts (nobody told) once their devices are due.
 */
export const createRulesOfPerson = ({ rules, states, relations, now, log }: RulesOfPersonDeps) => {
  const devicesOf = devicesOfTarget(relations);

  const rewrite = async (rule: StoredRule, change: Partial<StoredRule>) => {
    const written = await rules.replace(
      { ...rule, ...change, updated: Math.max(now(), rule.updated + 1) },
      rule.updated,
    );
    // Someone changed the rule in between: the purge stops (409 to an administrator, the job's next run) and reads again.
    if (!written) throw new Conflict(MESSAGES.alertChanged);
  };

  /** Rule caches forget, and the targets' devices become due: the sweep closes or re-reads their tracks. */
  const propagate = (targets: readonly AlertTarget[]) => touchTargets({ states, devicesOf, now }, targets);

  /** Others' rules naming the person as a recipient, on the targets the person's relations reach. */
  const naming = async (userId: string): Promise<StoredRule[]> => {
    const held = await relations.queryAll('referent', userId, Object.keys(TARGET_OF) as RelationType[]);
    const targets = held.map((r) => ({ kind: TARGET_OF[r.type]!, id: r.referrerId }));
    const found = new Map<string, StoredRule>();
    for (const target of targets) {
      const ofTarget = await readAll((startKey) => rules.byTarget(target, { limit: PAGE, startKey }));
      for (const rule of ofTarget) {
        if (rule.createdBy !== userId && rule.recipients.some((r) => r.kind === 'person' && r.userId === userId))
          found.set(rule.id, rule);
      }
    }
    return [...found.values()];
  };

  return {
    area: 'alerts',
    /** @returns how many rules went and how many lost the person as a recipient */
    removeAllOf: async (userId: string) => {
      const made = await readAll((startKey) => rules.byCreator(userId, { limit: PAGE, startKey }));
      const others = await naming(userId);
      for (const rule of made) if (rule.enabled) await rewrite(rule, { enabled: false });
      // A rule left without recipients tells its target's owners or managers, as any rule without recipients does.
      for (const rule of others) {
        await rewrite(rule, {
          recipients: rule.recipients.filter((r) => !(r.kind === 'person' && r.userId === userId)),
        });
      }
      if (made.length || others.length) await propagate([...made, ...others].map((rule) => rule.target));
      for (const rule of made) await rules.remove(rule.id);
      log('info', "A deleted account's alert rules removed", {
        userId,
        rules: made.length,
        recipientOf: others.length,
      });
      return made.length + others.length;
    },
  };
};

export type RulesOfPerson = ReturnType<typeof createRulesOfPerson>;
