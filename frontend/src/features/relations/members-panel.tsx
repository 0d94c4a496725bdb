import { useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { isStaff } from '../../../../shared/auth/groups';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import type { Relation } from '../../../../shared/contracts/relations';
import type { GuardedKind, RelationType } from '../../../../shared/relations/relation-types';
import { useApi } from '../../lib/api';
import { useSignedInUser } from '../../lib/session';
import {
  addableRoles,
  checkNewDevice,
  checkNewRelation,
  DEVICE_HOLDER_TYPE,
  factsOnDevice,
  factsOnReferrer,
  mayOfferAddDevice,
  memberTypes,
} from './member-controls';
import { AddForm, ErrorAlert, SelectField, TypeOptions } from './relation-fields';
import { KIND_NAME, KIND_TITLE } from './relation-groups';
import { type PageLoader, replaceRelation } from './relation-list';
import { RelationRows } from './relation-rows';
import { RELATIONS_MESSAGES } from './relations-messages';
import { useMyRoles } from './use-my-roles';
import { type PagedRelations, usePagedRelations } from './use-paged-relations';
import { useRelationChanges } from './use-relation-changes';

export interface MembersPanelProps {
  kind: GuardedKind;
  objectId: string;
}

/**
 * Who belongs to a device, organization or campaign, with their roles; for an organization or campaign
 * also its devices, for a device the organizations and campaigns holding it. Add, remove and change-role
 * controls appear only where the shared rules allow them (the API enforces the same rules and its
 * refusal is shown as it comes). Mount it with `key={objectId}`: its state belongs to one object.
 */
export const MembersPanel = ({ kind, objectId }: MembersPanelProps) => {
  const relations = useApi('relations');
  const user = useSignedInUser();
  const staff = isStaff(user.groups);
  const mine = useMyRoles(kind, objectId, user.id, staff);
  const facts = useMemo(() => factsOnReferrer(user.id, staff, mine.roles), [user.id, staff, mine.roles]);
  const holderFacts = useMemo(() => factsOnDevice(user.id, staff, mine.roles), [user.id, staff, mine.roles]);

  // A device's referrer relations are all memberships; an organization's or campaign's also hold devices,
  // and listByReferrerId filters on one type only, so their members come through listByParameters.
  const loadMembers = useCallback<PageLoader>(
    (cursor) =>
      kind === 'device'
        ? relations.listByReferrerId({ params: { id: objectId, x: DEFAULT_PAGE_SIZE }, query: { cursor } })
        : relations.listByParameters({
            body: {
              parameters: [{ typeName: 'referrer', id: objectId, typeArray: memberTypes(kind) }],
              limit: DEFAULT_PAGE_SIZE,
              cursor,
            },
          }),
    [relations, kind, objectId],
  );
  // One type of relation on either side of the object, e.g. its devices or the campaigns holding it.
  const byEnd = useCallback(
    (list: 'listByReferrerId' | 'listByReferentId', type: RelationType | undefined): PageLoader | undefined =>
      type &&
      ((cursor) => relations[list]({ params: { id: objectId, x: DEFAULT_PAGE_SIZE }, query: { type, cursor } })),
    [relations, objectId],
  );
  const loadDevices = useMemo(
    () => byEnd('listByReferrerId', kind === 'device' ? undefined : DEVICE_HOLDER_TYPE[kind]),
    [byEnd, kind],
  );
  const loadOrganizations = useMemo(
    () => byEnd('listByReferentId', kind === 'device' ? DEVICE_HOLDER_TYPE.organization : undefined),
    [byEnd, kind],
  );
  const loadCampaigns = useMemo(
    () => byEnd('listByReferentId', kind === 'device' ? DEVICE_HOLDER_TYPE.campaign : undefined),
    [byEnd, kind],
  );

  const members = usePagedRelations(loadMembers);
  const devices = usePagedRelations(loadDevices);
  const organizations = usePagedRelations(loadOrganizations);
  const campaigns = usePagedRelations(loadCampaigns);

  const roles = addableRoles(kind, objectId, facts);
  const [chosenRole, setChosenRole] = useState<RelationType>();
  const role = chosenRole && roles.includes(chosenRole) ? chosenRole : roles[0];
  const [memberId, setMemberId] = useState('');
  const [deviceId, setDeviceId] = useState('');
  const changes = useRelationChanges();
  const { busy } = changes;

  // Changing one's own relation may change one's rights here, and so the controls.
  const afterOwnChange = (relation: Relation) => {
    if (relation.referentId === user.id) mine.reload();
  };

  const remove = (list: PagedRelations) => (relation: Relation) => {
    const { type, referrerId, referentId } = relation;
    changes.remove(relation, list, RELATIONS_MESSAGES.removeConfirm(type, referrerId, referentId), () =>
      afterOwnChange(relation),
    );
  };

  const changeRole = (relation: Relation, to: RelationType) =>
    void changes.run(relation.id, async () => {
      const saved = await relations.update({ params: { id: relation.id }, body: { type: to } });
      members.update((shown) => replaceRelation(shown, relation.id, saved));
      afterOwnChange(relation);
    });

  const addMember = () => {
    if (!role) return;
    changes.create('add-member', checkNewRelation(role, objectId, memberId, facts), members, () => setMemberId(''));
  };

  const addDevice = () => {
    if (kind === 'device') return;
    changes.create('add-device', checkNewDevice(kind, objectId, deviceId), devices, () => setDeviceId(''));
  };

  const error = changes.error ?? members.error ?? devices.error ?? organizations.error ?? campaigns.error ?? mine.error;
  const rowProps = { busy, onChangeRole: changeRole };

  return (
    <div className="members" data-testid="members">
      <ErrorAlert testId="members-error" error={error} />
      {staff && (
        <p className="small">
          <Link to={`/admin/relations?referrer=${encodeURIComponent(objectId)}`} data-testid="members-admin-link">
            Open in the relations browser
          </Link>
        </p>
      )}

      <RelationRows
        {...rowProps}
        testId="members-list"
        title="Members"
        endHeading="Member"
        end="referent"
        list={members}
        loadMoreTestId="members-load-more"
        empty={RELATIONS_MESSAGES.noMembers}
        facts={facts}
        showRole
        onRemove={remove(members)}
      />
      {role && (
        <AddForm
          label="Add a member"
          testId="members-add"
          idLabel="User id"
          placeholder="the person's user id (sub)"
          value={memberId}
          onChange={setMemberId}
          busy={busy === 'add-member'}
          submitText="Add member"
          onSubmit={addMember}
        >
          <SelectField
            id="members-add-role"
            label="Role"
            value={role}
            onChange={(type) => setChosenRole(type as RelationType)}
          >
            <TypeOptions types={roles} />
          </SelectField>
        </AddForm>
      )}

      {kind !== 'device' && (
        <>
          <RelationRows
            {...rowProps}
            testId="members-devices"
            title="Devices"
            endHeading="Device"
            end="referent"
            endKind="device"
            list={devices}
            loadMoreTestId="members-devices-load-more"
            empty={RELATIONS_MESSAGES.noDevices}
            facts={facts}
            showRole={false}
            onRemove={remove(devices)}
          />
          {mayOfferAddDevice(kind, objectId, facts) && (
            <AddForm
              label="Add a device"
              testId="members-add-device"
              idLabel="Device id"
              value={deviceId}
              onChange={setDeviceId}
              busy={busy === 'add-device'}
              submitText="Add device"
              onSubmit={addDevice}
            />
          )}
        </>
      )}

      {kind === 'device' &&
        (
          [
            ['organization', organizations],
            ['campaign', campaigns],
          ] as const
        ).map(([holder, list]) => (
          <RelationRows
            {...rowProps}
            key={holder}
            testId={`members-holders-${holder}`}
            title={`In ${KIND_TITLE[holder].toLowerCase()}`}
            endHeading={KIND_NAME[holder]}
            end="referrer"
            endKind={holder}
            list={list}
            loadMoreTestId={`members-holders-${holder}-load-more`}
            empty={RELATIONS_MESSAGES.noHolders(holder)}
            facts={holderFacts}
            showRole={false}
            onRemove={remove(list)}
          />
        ))}
    </div>
  );
};
