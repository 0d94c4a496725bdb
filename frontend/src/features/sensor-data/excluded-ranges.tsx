import type { Exclusion } from '../../../../shared/contracts/sensor-data-quality';

const when = (ms: number) => new Date(ms).toLocaleString();

/**
 * Active exclusions as a list (docs/data-quality.md "Screens"): each range, what it covers ("PM2.5", "2 devices") and
 * its reason, with "Bring back" for those who may remove it. `testId` names the parts: `{testId}s-empty`,
 * `{testId}-list`, `{testId}-item`, `{testId}-remove`. A file of its own, so the campaign's chunk needs no chart code.
 */
export const ExcludedRanges = <E extends Pick<Exclusion, 'id' | 'from' | 'to' | 'reason'>>({
  testId,
  items,
  covers,
  onBringBack,
  busy,
}: {
  testId: string;
  items: readonly E[];
  covers: (item: E) => string;
  /** Absent: the person may not remove them. */
  onBringBack?: (item: E) => void;
  /** The id whose removal is under way (every button waits meanwhile); '' when another change is. */
  busy?: string;
}) =>
  items.length === 0 ? (
    <p className="muted small" data-testid={`${testId}s-empty`}>
      Nothing excluded.
    </p>
  ) : (
    <ul className="quality-history" data-testid={`${testId}-list`}>
      {items.map((e) => (
        <li key={e.id} data-testid={`${testId}-item`}>
          {when(e.from)} – {when(e.to)}, {covers(e)}: {e.reason}{' '}
          {onBringBack && (
            <button
              type="button"
              data-testid={`${testId}-remove`}
              disabled={busy !== undefined}
              onClick={() => onBringBack(e)}
            >
              {busy === e.id ? 'Bringing back…' : 'Bring back'}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
