import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { isStaff } from '../../../../shared/auth/groups';
import { MAX_PAGE_SIZE } from '../../../../shared/contracts/common';
import type { ChangeFacts } from '../../../../shared/relations/relation-rules';
import type { GuardedKind } from '../../../../shared/relations/relation-types';
import { ErrorAlert } from '../../components/form-parts';
import { ObjectPicker } from '../../components/object-picker';
import { useObjectNames } from '../../lib/object-names';
import { routeQuery } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import {
  addableRoles,
  checkNewDevice,
  factsOnDevice,
  factsOnReferrer,
  HOLDER_KINDS,
  type HolderKind,
  mayOfferAddDevice,
} from './member-controls';
import { AddForm } from './relation-fields';
import { KIND_NAME, KIND_TITLE } from './relation-groups';
import { RelationRows } from './relation-rows';
import { devicesList, holdersList, membersList, useRelationList } from './relations-api';
import { RELATIONS_MESSAGES } from './relations-messages';
import { useMyRoles } from './use-my-roles';
import { type RelationChanges, useRelationChanges } from './use-relation-changes';

// The picker is drawn only for those who may add members, and the panel sits in the entry chunk (the guest
// dashboard's budget): it comes with its own chunk when first shown.
const AddMemberForm = lazy(() => import('./add-member-form').then((m) => ({ default: m.AddMemberForm })));

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
  const user = useSignedInUser();
  const staff = isStaff(user.groups);
  const mine = useMyRoles(kind, objectId, user.id, staff);
  const facts = useMemo(() => factsOnReferrer(user.id, staff, mine.roles), [user.id, staff, mine.roles]);
  const holderFacts = useMemo(() => factsOnDevice(user.id, staff, mine.roles), [user.id, staff, mine.roles]);
  const members = useRelationList(membersList(kind, objectId));

  const roles = addableRoles(kind, objectId, facts);
  const changes = useRelationChanges();

  return (
    <div className="members" data-testid="members">
      <ErrorAlert testId="members-error" error={changes.error ?? members.error ?? mine.error} />
      {staff && (
        <p className="small">
          <Link to={`/admin/relations?referrer=${encodeURIComponent(objectId)}`} data-testid="members-admin-link">
            Open in the relations browser
          </Link>
        </p>
      )}

      <RelationRows
        {...rowProps(changes)}
        testId="members-list"
        title="Members"
        endHeading="Member"
        end="referent"
        list={members}
        name="members"
        errorShownAbove
        empty={RELATIONS_MESSAGES.noMembers}
        facts={facts}
        showRole
        // The API tells an organization's managers and staff how its members sign in (issue 21); others would see
        // a column of blanks.
        showSignIn={kind === 'organization' && (staff || mine.roles.includes('organization-manager'))}
      />
      {roles.length > 0 && (
        <Suspense fallback={null}>
          <AddMemberForm objectId={objectId} roles={roles} facts={facts} changes={changes} />
        </Suspense>
      )}

      {kind === 'device' ? (
        HOLDER_KINDS.map((holder) => (
          <DeviceHolders key={holder} holder={holder} deviceId={objectId} facts={holderFacts} changes={changes} />
        ))
      ) : (
        <HeldDevices kind={kind} objectId={objectId} facts={facts} changes={changes} />
      )}
    </div>
  );
};

/** What every list of the panel does with a row: change its role, remove it (asking first). */
const rowProps = (changes: RelationChanges) => ({
  busy: changes.busy,
  onChangeRole: changes.changeRole,
  onRemove: (relation: Parameters<RelationChanges['remove']>[0]) =>
    changes.remove(relation, RELATIONS_MESSAGES.removeConfirm(relation.type, relation.referrerId, relation.referentId)),
});

interface ListProps {
  facts: ChangeFacts;
  /** The panel's changes: one at a time, their failure shown at the top of the panel. */
  changes: RelationChanges;
}

/** The devices an organization or campaign holds, and "add device" for its managers. */
const HeldDevices = ({ kind, objectId, facts, changes }: ListProps & { kind: HolderKind; objectId: string }) => {
  const devices = useRelationList(devicesList(kind, objectId));
  const names = useObjectNames(
    devices.items.map((relation) => ({ kind: 'device', id: relation.referentId })),
    { kind, id: objectId },
  );
  const offerAdd = mayOfferAddDevice(kind, objectId, facts);
  // The devices the person may add: their own (owner, administrator or user), first page, by name.
  const mine = useQuery({
    ...routeQuery('devices', 'listMine', { query: { limit: MAX_PAGE_SIZE } }),
    enabled: offerAdd,
    select: (page) => page.items.map((device) => ({ id: device.id, name: device.name || device.id })),
  });
  const [deviceId, setDeviceId] = useState('');
  const addDevice = () => changes.create('add-device', checkNewDevice(kind, objectId, deviceId), () => setDeviceId(''));
  return (
    <>
      <RelationRows
        {...rowProps(changes)}
        testId="members-devices"
        title="Devices"
        endHeading="Device"
        end="referent"
        endKind="device"
        names={names}
        list={devices}
        name="members-devices"
        empty={RELATIONS_MESSAGES.noDevices}
        facts={facts}
        showRole={false}
      />
      {offerAdd && (
        <AddForm
          label="Add a device"
          testId="members-add-device"
          busy={changes.busy === 'add-device'}
          submitText="Add device"
          onSubmit={addDevice}
          field={
            <ObjectPicker
              id="members-add-device-id"
              label="Device"
              value={deviceId}
              onChange={setDeviceId}
              options={mine.data ?? []}
              loading={mine.isPending}
            />
          }
        />
      )}
    </>
  );
};

/** The organizations, or campaigns, holding a device. */
const DeviceHolders = ({ holder, deviceId, facts, changes }: ListProps & { holder: HolderKind; deviceId: string }) => {
  const holders = useRelationList(holdersList(holder, deviceId));
  const names = useObjectNames(holders.items.map((relation) => ({ kind: holder, id: relation.referrerId })));
  return (
    <RelationRows
      {...rowProps(changes)}
      testId={`members-holders-${holder}`}
      title={`In ${KIND_TITLE[holder].toLowerCase()}`}
      endHeading={KIND_NAME[holder]}
      end="referrer"
      endKind={holder}
      names={names}
      list={holders}
      name={`members-holders-${holder}`}
      empty={RELATIONS_MESSAGES.noHolders(holder)}
      facts={facts}
      showRole={false}
    />
  );
};
