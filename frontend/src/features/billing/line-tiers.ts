import { useQuery } from '@tanstack/react-query';
import type { ProductLine } from '../../../../shared/contracts/devices';
import { routeQuery } from '../../lib/query';
import type { LineTier } from './plan-rules';

/**
 * A product line's tiers as the API says they are now (GET /sensor-data/tiers, a guest route): administrators
 * change what each unlocks on /admin/tiers, whose save invalidates this query.
 */
export const useLineTiers = (productLine: ProductLine) => {
  const query = useQuery(routeQuery('sensor-data', 'listTiers', {}));
  const rows: readonly LineTier[] | undefined = query.data?.productLines.find(
    (line) => line.productLine === productLine,
  )?.tiers;
  return { rows, query };
};
