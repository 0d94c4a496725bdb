import type { Relation } from '../../../../shared/contracts/relations';
import { type RelationType, relationId } from '../../../../shared/relations/relation-types';
import { removeRelation, replaceRelation, upsertRelation } from './relation-list';

const r = (type: RelationType, referentId: string, created = 1): Relation => ({
  id: relationId(type, 'dev-1', referentId),
  type,
  referrerId: 'dev-1',
  referentId,
  created,
});

describe('the shown list of relations', () => {
  it('puts an added relation first and replaces a known one in place', () => {
    expect(upsertRelation([r('device-user', 'a')], r('device-user', 'b'))).toEqual([
      r('device-user', 'b'),
      r('device-user', 'a'),
    ]);
    expect(upsertRelation([r('device-user', 'a'), r('device-user', 'b')], r('device-user', 'a', 5))).toEqual([
      r('device-user', 'a', 5),
      r('device-user', 'b'),
    ]);
  });

  it('shows a role change under the new id in the old row’s place', () => {
    const before = [r('device-user', 'a'), r('device-user', 'b'), r('device-user', 'c')];
    const changed = r('device-administrator', 'b');
    expect(replaceRelation(before, before[1]!.id, changed)).toEqual([before[0], changed, before[2]]);
  });

  it('does not show a role change twice when a later page already brought the new id', () => {
    const changed = r('device-administrator', 'b');
    const before = [r('device-user', 'b'), r('device-user', 'c'), changed];
    expect(replaceRelation(before, before[0]!.id, changed)).toEqual([changed, r('device-user', 'c')]);
  });

  it('adds a role change whose old row is not shown', () => {
    const changed = r('device-administrator', 'b');
    expect(replaceRelation([r('device-user', 'a')], 'device-user#dev-1#b', changed)).toEqual([
      changed,
      r('device-user', 'a'),
    ]);
  });

  it('removes a deleted relation', () => {
    expect(removeRelation([r('device-user', 'a'), r('device-user', 'b')], 'device-user#dev-1#a')).toEqual([
      r('device-user', 'b'),
    ]);
  });
});
