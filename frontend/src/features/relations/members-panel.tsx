import { type FormEvent, useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { isStaff } from '../../../../shared/auth/groups';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import type { Relation } from '../../../../shared/contracts/relations';
import type { GuardedKind, RelationType } from '../../../../shared/relations/relation-types';
import { useApi } from '../../lib/api';
import { errorMessage } from '../../lib/error-message';
import { useSignedInUser } from '../../lib/session';
import {
  addableRoles,
  checkId,
  checkNewRelation,
  DEVICE_HOLDER_TYPE,
  factsOnDevice,
  factsOnReferrer,
  mayOfferAddDevice,
  memberTypes,
} from './member-controls';
import { KIND_TITLE } from './relation-groups';
import { type PageLoader, removeRelation, replaceRelation, upsertRelation } from './relation-list';
import { RelationRows } from './relation-rows';
import { RELATIONS_MESSAGES } from './relations-messages';
import { useMyRoles } from './use-my-roles';
import { type PagedRelations, usePagedRelations } from './use-paged-relations';

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
  const byReferrer = useCallback(
    (type: RelationType | undefined): PageLoader | undefined =>
      type &&
      ((cursor) =>
        relations.listByReferrerId({ params: { id: objectId, x: DEFAULT_PAGE_SIZE }, query: { type, cursor } })),
    [relations, objectId],
  );
  const byReferent = useCallback(
    (type: RelationType | undefined): PageLoader | undefined =>
      type &&
      ((cursor) =>
        relations.listByReferentId({ params: { id: objectId, x: DEFAULT_PAGE_SIZE }, query: { type, cursor } })),
    [relations, objectId],
  );
  const loadDevices = useMemo(
    () => byReferrer(kind === 'device' ? undefined : DEVICE_HOLDER_TYPE[kind]),
    [byReferrer, kind],
  );
  const loadOrganizations = useMemo(
    () => byReferent(kind === 'device' ? DEVICE_HOLDER_TYPE.organization : undefined),
    [byReferent, kind],
  );
  const loadCampaigns = useMemo(
    () => byReferent(kind === 'device' ? DEVICE_HOLDER_TYPE.campaign : undefined),
    [byReferent, kind],
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
  const [busy, setBusy] = useState<string>();
  const [actionError, setActionError] = useState<string>();

  const run = async (what: string, action: () => Promise<void>) => {
    setBusy(what);
    setActionError(undefined);
    try {
      await action();
    } catch (failure) {
      setActionError(errorMessage(failure));
    } finally {
      setBusy(undefined);
    }
  };

  // Changing one's own relation may change one's rights here, and so the controls.
  const afterOwnChange = (relation: Relation) => {
    if (relation.referentId === user.id) mine.reload();
  };

  const remove = (list: PagedRelations) => (relation: Relation) => {
    const { id, type, referrerId, referentId } = relation;
    if (!window.confirm(RELATIONS_MESSAGES.removeConfirm(type, referrerId, referentId))) return;
    void run(id, async () => {
      await relations.delete({ params: { id } });
      list.update((shown) => removeRelation(shown, id));
      afterOwnChange(relation);
    });
  };

  const changeRole = (relation: Relation, to: RelationType) =>
    void run(relation.id, async () => {
      const saved = await relations.update({ params: { id: relation.id }, body: { type: to } });
      members.update((shown) => replaceRelation(shown, relation.id, saved));
      afterOwnChange(relation);
    });

  const addMember = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!role) return;
    const checked = checkNewRelation(role, objectId, memberId, facts);
    if (!checked.ok) return setActionError(checked.error);
    void run('add-member', async () => {
      const created = await relations.create({ body: checked.value });
      members.update((shown) => upsertRelation(shown, created));
      setMemberId('');
    });
  };

  const addDevice = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (kind === 'device') return;
    const checked = checkId(deviceId);
    if (!checked.ok) return setActionError(checked.error);
    void run('add-device', async () => {
      const created = await relations.create({
        body: { type: DEVICE_HOLDER_TYPE[kind], referrerId: objectId, referentId: checked.value },
      });
      devices.update((shown) => upsertRelation(shown, created));
      setDeviceId('');
    });
  };

  const error = actionError ?? members.error ?? devices.error ?? organizations.error ?? campaigns.error ?? mine.error;
  const rowProps = { busy, onChangeRole: changeRole };

  return (
    <div className="members" data-testid="members">
      {error && (
        <p className="error" role="alert" data-testid="members-error">
          {error}
        </p>
      )}
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
        <form className="inline-form" onSubmit={addMember} noValidate aria-label="Add a member">
          <div className="field">
            <label htmlFor="members-add-id">User id</label>
            <input
              id="members-add-id"
              data-testid="members-add-id"
              className="mono"
              value={memberId}
              onChange={(e) => setMemberId(e.target.value)}
              autoComplete="off"
              spellCheck={false}
              placeholder="the person's user id (sub)"
            />
          </div>
          <div className="field">
            <label htmlFor="members-add-role">Role</label>
            <select
              id="members-add-role"
              data-testid="members-add-role"
              value={role}
              onChange={(e) => setChosenRole(e.target.value as RelationType)}
            >
              {roles.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="primary" data-testid="members-add-submit" disabled={busy === 'add-member'}>
            {busy === 'add-member' ? 'Adding…' : 'Add member'}
          </button>
        </form>
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
            <form className="inline-form" onSubmit={addDevice} noValidate aria-label="Add a device">
              <div className="field">
                <label htmlFor="members-add-device-id">Device id</label>
                <input
                  id="members-add-device-id"
                  data-testid="members-add-device-id"
                  className="mono"
                  value={deviceId}
                  onChange={(e) => setDeviceId(e.target.value)}
                  autoComplete="off"
                  spellCheck={false}
                />
              </div>
              <button
                type="submit"
                className="primary"
                data-testid="members-add-device-submit"
                disabled={busy === 'add-device'}
              >
                {busy === 'add-device' ? 'Adding…' : 'Add device'}
              </button>
            </form>
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
            endHeading={KIND_TITLE[holder].slice(0, -1)}
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
