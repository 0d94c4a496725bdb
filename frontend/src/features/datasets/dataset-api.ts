import { useQuery } from '@tanstack/react-query';
import type { DatasetFile } from '../../../../shared/contracts/datasets';
import { apiClient } from '../../lib/api';
import { routeKey, routeQuery } from '../../lib/query';

const POLL_MS = 1_000;

/**
 * One dataset; read every second while it builds, so its progress moves on the page. Nothing is asked without an id
 * (a new dataset that continues none): the request would fail before it left, on every visit (issue 36).
 */
export const useDataset = (datasetId: string | undefined) =>
  useQuery({
    ...routeQuery('datasets', 'getDataset', { params: { datasetId: datasetId ?? '' } }),
    enabled: Boolean(datasetId),
    // Read again until it is frozen or failed, after which it never changes.
    refetchInterval: (query) =>
      query.state.data && query.state.data.status !== 'frozen' && query.state.data.status !== 'failed'
        ? POLL_MS
        : false,
  });

/** Every list a new or finished dataset may show in. */
export const datasetListKeys = [
  routeKey('datasets', 'listPublicDatasets'),
  routeKey('datasets', 'listMyDatasets'),
  routeKey('datasets', 'listCampaignDatasets'),
  routeKey('datasets', 'listDatasetVersions'),
];

/** A fresh 5-minute signed link of one of a frozen dataset's files (spec §7 `POST /api/aws` getSignedS3Url). */
export const signedDatasetFile = async (file: Pick<DatasetFile, 'bucket' | 'key'>) =>
  (
    await apiClient('api').aws({
      body: { action: 'getSignedS3Url', params: { bucket: file.bucket, key: file.key } },
    })
  ).url;
