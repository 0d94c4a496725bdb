import { LanternFirstContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-first-contentful-paint.js';
import { LanternLargestContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js';
import { defaultSettings } from 'lighthouse/core/config/constants.js';
import { loadArtifacts } from 'lighthouse/core/lib/asset-saver.js';

/**
 * What Lighthouse's simulated LCP (or FCP) of one saved run is made of: `npx tsx test/bench/lantern-graph.ts
 * DIR [lcp|fcp]`, where DIR is a run's `-artifacts` folder that `BENCH_LIGHTHOUSE_REPORTS` keeps. It prints every
 * request of the metric's graph and every main-thread task of it longer than 20 ms, with the start and end Lantern
 * simulated for them on its slow-4G, 4× CPU phone, the last to end last: the metric is when the last one ends.
 * The score's own figure is the same simulation, so what ends last is what holds it (decision 110).
 */

/** One node of Lantern's graph, as far as this report reads it. */
interface GraphNode {
  type: 'network' | 'cpu';
  duration: number;
  request?: { resourceType?: string; url: string; transferSize: number };
}
type Estimate = { timeInMs: number; nodeTimings: Map<GraphNode, { startTime: number; endTime: number }> };

const [dir, metric = 'lcp'] = process.argv.slice(2);
if (!dir || !['lcp', 'fcp'].includes(metric)) {
  console.error('Usage: npx tsx test/bench/lantern-graph.ts <run>-artifacts [lcp|fcp]');
  process.exit(2);
}
const artifacts = loadArtifacts(dir);
// The bench's mobile runs use Lighthouse's default settings: simulated slow 4G and a 4× slower CPU.
const settings = { ...defaultSettings, formFactor: 'mobile' as const, throttlingMethod: 'simulate' as const };
const computed = (metric === 'fcp' ? LanternFirstContentfulPaint : LanternLargestContentfulPaint) as unknown as {
  request: (data: unknown, context: unknown) => Promise<{ timing: number; pessimisticEstimate: Estimate }>;
};
const result = await computed.request(
  {
    trace: artifacts.Trace,
    devtoolsLog: artifacts.DevtoolsLog,
    gatherContext: artifacts.GatherContext,
    settings,
    URL: artifacts.URL,
    SourceMaps: artifacts.SourceMaps,
    simulator: undefined,
  },
  { computedCache: new Map(), settings },
);
console.log(`${metric.toUpperCase()} ${Math.round(result.timing)} ms simulated; its graph, by when each part ends:`);
const rows = [...result.pessimisticEstimate.nodeTimings.entries()].sort(([, a], [, b]) => a.endTime - b.endTime);
for (const [node, { startTime, endTime }] of rows) {
  if (node.type === 'cpu' && endTime - startTime < 20) continue;
  const what =
    node.type === 'network' && node.request
      ? `${node.request.resourceType ?? 'Other'} ${node.request.url.replace(/^https?:\/\/[^/]+/, '')} (${node.request.transferSize} B)`
      : `main-thread task (${Math.round(node.duration / 1000)} ms observed)`;
  console.log(`${String(Math.round(startTime)).padStart(6)} → ${String(Math.round(endTime)).padStart(6)} ms  ${what}`);
}
