import { parseAudience } from '../../../../shared/notifications/audience';
import { PersonName } from '../../components/person-name';
import { audienceText } from './notification-rules';

/**
 * One audience selector as staff read it: a person by name (issue 18: no person as an id on screen), the other
 * kinds in words beside the selector the notification stores.
 */
export const AudienceLabel = ({ selector }: { selector: string }) => {
  const parsed = parseAudience(selector);
  if (!('error' in parsed) && parsed.kind === 'user') {
    return (
      <span title={selector}>
        Person <PersonName id={parsed.userId} />
      </span>
    );
  }
  return (
    <span>
      {audienceText(selector)} <code className="chip-code">{selector}</code>
    </span>
  );
};
