import type { IdentityUser } from '../../../../shared/contracts/users';
import { GroupTags } from '../../components/group-tags';
import { When } from '../../components/when';
import { STATUS_TEXT } from './people-rules';

/** Enabled or disabled, in words and in a test id the tests can wait on. */
export const EnabledText = ({ enabled, testId }: { enabled: boolean; testId: string }) => (
  <span className={enabled ? undefined : 'error-text'} data-testid={testId} data-enabled={String(enabled)}>
    {enabled ? 'Enabled' : 'Disabled'}
  </span>
);

/** The identity facts both profile screens show. */
export const PersonFacts = ({ identity }: { identity: IdentityUser }) => (
  <dl className="facts" data-testid="person-facts">
    <dt>First name</dt>
    <dd data-testid="person-given-name">{identity.givenName || <span className="muted">—</span>}</dd>
    <dt>Last name</dt>
    <dd data-testid="person-family-name">{identity.familyName || <span className="muted">—</span>}</dd>
    <dt>Display name</dt>
    <dd data-testid="person-display-name">{identity.displayName || <span className="muted">—</span>}</dd>
    <dt>E-mail</dt>
    <dd data-testid="person-email">
      {identity.email ?? <span className="muted">—</span>}
      {identity.email && !identity.emailVerified && <span className="muted small"> (not verified)</span>}
    </dd>
    <dt>Groups</dt>
    <dd>
      <GroupTags groups={identity.groups} testId="person-groups" />
    </dd>
    <dt>Status</dt>
    <dd>
      <span data-testid="person-status">{STATUS_TEXT[identity.status]}</span>
      {', '}
      <EnabledText enabled={identity.enabled} testId="person-enabled" />
    </dd>
    <dt>Created</dt>
    <dd>
      <When ms={identity.created} testId="person-created" />
    </dd>
  </dl>
);
