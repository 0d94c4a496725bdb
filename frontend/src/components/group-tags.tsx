import { UI_MESSAGES } from '../lib/ui-messages';

/** A person's groups as tags, or in words when they are in none. */
export const GroupTags = ({ groups, testId }: { groups: readonly string[] | undefined; testId?: string }) =>
  groups?.length ? (
    <ul className="tags" data-testid={testId}>
      {groups.map((group) => (
        <li key={group}>{group}</li>
      ))}
    </ul>
  ) : (
    <span className="muted" data-testid={testId}>
      {UI_MESSAGES.noGroup}
    </span>
  );
