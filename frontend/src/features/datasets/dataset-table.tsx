import { Link } from 'react-router-dom';
import type { Dataset } from '../../../../shared/contracts/datasets';
import { ListTable } from '../../components/list-table';
import { When } from '../../components/when';
import { datasetStatusText } from './dataset-rules';

/** Datasets as a table: title (to its page), version, visibility, state, and when it was asked for. */
export const DatasetTable = ({
  datasets,
  testId,
  label,
}: {
  datasets: readonly Dataset[];
  testId: string;
  label: string;
}) => (
  <ListTable
    label={label}
    testId={testId}
    rows={datasets}
    rowKey={(dataset) => dataset.id}
    rowTestId={(dataset) => `${testId}-${dataset.id}`}
    columns={[
      { header: 'Dataset', cell: (dataset) => <Link to={`/dashboard/datasets/${dataset.id}`}>{dataset.title}</Link> },
      { header: 'Version', cell: (dataset) => dataset.version },
      { header: 'Visibility', cell: (dataset) => (dataset.visibility === 'public' ? 'Public' : 'Permissioned') },
      { header: 'State', cell: (dataset) => datasetStatusText(dataset) },
      { header: 'Made', cell: (dataset) => <When ms={dataset.frozenAt ?? dataset.created} /> },
    ]}
  />
);
