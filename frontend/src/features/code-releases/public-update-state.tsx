import { type DeviceUpdateState, UPDATE_STATE_TEXT } from '../../../../shared/code-releases/rollout-rules';
import './update-state.css';

const TONE: Record<DeviceUpdateState, { tone: string; glyph: string }> = {
  pending: { tone: 'muted', glyph: '·' },
  offered: { tone: 'info', glyph: '↓' },
  downloading: { tone: 'info', glyph: '↓' },
  installing: { tone: 'info', glyph: '◷' },
  succeeded: { tone: 'success', glyph: '✓' },
  failed: { tone: 'danger', glyph: '✕' },
  rejected: { tone: 'caution', glyph: '⊘' },
  timed_out: { tone: 'danger', glyph: '⌛' },
  superseded: { tone: 'muted', glyph: '→' },
};

/**
 * Where a device's update stands, in words and a colour that only repeats them (the glyph says it too). Public: the
 * device page's update history shows it as well (docs/style.md §9).
 */
export const UpdateStateBadge = ({ state, testId }: { state: DeviceUpdateState; testId?: string }) => (
  <span className={`badge update-${TONE[state].tone}`} data-testid={testId}>
    <span aria-hidden="true">{TONE[state].glyph}</span> {UPDATE_STATE_TEXT[state]}
  </span>
);
