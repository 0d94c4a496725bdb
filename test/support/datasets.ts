import { createHash } from 'node:crypto';
import type { Dataset, DatasetFile } from '../../shared/contracts/datasets';
import { apiAs } from './stack';

/** Polls a dataset until it is frozen (or failed), keeping the progress values seen. */
export const waitForDataset = async (id: string, token?: string, timeoutMs = 60_000) => {
  const datasets = apiAs('datasets', token);
  const seen: number[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const dataset = await datasets.getDataset({ params: { datasetId: id } });
    seen.push(dataset.progress);
    if (dataset.status === 'frozen' || dataset.status === 'failed') return { dataset, seen };
    if (Date.now() > deadline) throw new Error(`Dataset ${id} still ${dataset.status} at ${dataset.progress} %`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

/** A dataset's file through `POST /api/aws` getSignedS3Url, as the web app fetches it. */
export const fetchDatasetFile = async (file: Pick<DatasetFile, 'bucket' | 'key'>, token?: string) => {
  const { url } = await apiAs('api', token).aws({
    body: { action: 'getSignedS3Url', params: { bucket: file.bucket, key: file.key } },
  });
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`GET ${file.key}: ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
};

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

export const manifestFile = (dataset: Dataset) => dataset.files.find((file) => file.format === 'manifest')!;
