import type { Rollout } from '../../../../shared/contracts/code-releases';

const STATUS_TEXT: Record<Rollout['status'], string> = {
  preparing: 'Preparing',
  active: 'Active',
  halted: 'Halted',
  'rolled-back': 'Rolled back',
};

export const RolloutStatusBadge = ({ status }: { status: Rollout['status'] }) => (
  <span className={`badge rollout-${status}`} data-testid="rollout-status">
    {STATUS_TEXT[status]}
  </span>
);
