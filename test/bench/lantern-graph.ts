import { LanternFirstContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-first-contentful-paint.js';
import { LanternInteractive } from 'lighthouse/core/computed/metrics/lantern-interactive.js';
import { LanternLargestContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js';
import { LanternTotalBlockingTime } from 'lighthouse/core/computed/metrics/lantern-total-blocking-time.js';
import { defaultSettings } from 'lighthouse/core/config/constants.js';
import { loadArtifacts } from 'lighthouse/core/lib/asset-saver.js';

/**
 * What Lighthouse's simulated LCP (or FCP, or blocking time) of one saved run is made of: `npx tsx
 * test/bench/lantern-graph.ts DIR [lcp|fcp|tbt]`, where DIR is a run's `-artifacts` folder that
 * `BENCH_LIGHTHOUSE_REPORTS` keeps. For `lcp` and `fcp` it prints every request of the metric's graph and every
 * main-thread task of it longer than 20 ms, with the start and end Lantern simulated for them on its slow-4G, 4× CPU
 * phone, the last to end last: the metric is when the last one ends. The score's own figure is the same simulation,
 * so what ends last is what holds it (decision 110). For `tbt` it prints the run's blocking time as the report does
 * (the mean of Lantern's optimistic and pessimistic estimates), then the optimistic estimate's tasks longer than 50 ms,
 * each with its blocking time (what passes 50 ms between the first paint and the page's interactive time) and the
 * trace events that took most of it (a query's answer drawn: a timer's callback running React; a chart made; style
 * and layout).
 */

/** One node of Lantern's graph, as far as this report reads it. */
interface GraphNode {
  type: 'network' | 'cpu';
  duration: number;
  request?: { resourceType?: string; url: string; transferSize: number };
  childEvents?: { name: string; dur?: number; args?: { data?: { url?: string } } }[];
}
type Estimate = { timeInMs: number; nodeTimings: Map<GraphNode, { startTime: number; endTime: number }> };
type Metric = {
  request: (
    data: unknown,
    context: unknown,
  ) => Promise<{ timing: number; pessimisticEstimate: Estimate; optimisticEstimate: Estimate }>;
};

const [dir, metric = 'lcp'] = process.argv.slice(2);
if (!dir || !['lcp', 'fcp', 'tbt'].includes(metric)) {
  console.error('Usage: npx tsx test/bench/lantern-graph.ts <run>-artifacts [lcp|fcp|tbt]');
  process.exit(2);
}
const artifacts = loadArtifacts(dir);
// The bench's mobile runs use Lighthouse's default settings: simulated slow 4G and a 4× slower CPU.
const settings = { ...defaultSettings, formFactor: 'mobile' as const, throttlingMethod: 'simulate' as const };
const data = {
  trace: artifacts.Trace,
  devtoolsLog: artifacts.DevtoolsLog,
  gatherContext: artifacts.GatherContext,
  settings,
  URL: artifacts.URL,
  SourceMaps: artifacts.SourceMaps,
  simulator: undefined,
};
const context = { computedCache: new Map(), settings };
const fcp = LanternFirstContentfulPaint as unknown as Metric;

if (metric === 'tbt') {
  // Lighthouse's own figure, and the estimate it lists from: its optimistic one counts, of each task, what passes
  // 50 ms between the pessimistic first paint and the optimistic interactive time (LanternTotalBlockingTime).
  const blocking = await (LanternTotalBlockingTime as unknown as Metric).request(data, context);
  const from = (await fcp.request(data, context)).pessimisticEstimate.timeInMs;
  const to = (await (LanternInteractive as unknown as Metric).request(data, context)).optimisticEstimate.timeInMs;
  console.log(
    `TBT ${Math.round(blocking.timing)} ms simulated (the mean of its optimistic estimate, ` +
      `${Math.round(blocking.optimisticEstimate.timeInMs)} ms, and its pessimistic one, ` +
      `${Math.round(blocking.pessimisticEstimate.timeInMs)} ms). The optimistic estimate's tasks over 50 ms, counted ` +
      `from ${Math.round(from)} to ${Math.round(to)} ms:`,
  );
  const tasks = [...blocking.optimisticEstimate.nodeTimings.entries()]
    .filter(([node, { startTime, endTime }]) => node.type === 'cpu' && endTime - startTime > 50)
    .sort(([, a], [, b]) => a.startTime - b.startTime);
  const shown = new Set(['TimerFire', 'FunctionCall', 'RunMicrotasks', 'UpdateLayoutTree', 'Layout', 'Paint']);
  for (const [node, { startTime, endTime }] of tasks) {
    // Clipped to the window as Lighthouse clips it (calculateTbtImpactForEvent).
    const clipped = Math.min(endTime, to) - Math.max(startTime, from);
    const part = endTime >= from && startTime <= to && clipped >= 50 ? clipped - 50 : 0;
    const events = (node.childEvents ?? [])
      .filter((event) => shown.has(event.name) || event.name.startsWith('v8.evaluate'))
      .filter((event) => (event.dur ?? 0) >= 1_500)
      .map(
        (event) =>
          `${event.name}${event.args?.data?.url ? ` ${event.args.data.url.split('/').pop()}` : ''} ${Math.round((event.dur ?? 0) / 1000)}`,
      )
      .slice(0, 5);
    console.log(
      `${String(Math.round(startTime)).padStart(6)} +${String(Math.round(endTime - startTime)).padStart(4)} ms  blocking ${String(Math.round(part)).padStart(3)}  ${events.join(' | ')}`,
    );
  }
  console.log("Each trace event's figure is ms observed, before the 4× slowdown.");
} else {
  const result = await (metric === 'fcp' ? fcp : (LanternLargestContentfulPaint as unknown as Metric)).request(
    data,
    context,
  );
  console.log(`${metric.toUpperCase()} ${Math.round(result.timing)} ms simulated; its graph, by when each part ends:`);
  const rows = [...result.pessimisticEstimate.nodeTimings.entries()].sort(([, a], [, b]) => a.endTime - b.endTime);
  for (const [node, { startTime, endTime }] of rows) {
    if (node.type === 'cpu' && endTime - startTime < 20) continue;
    const what =
      node.type === 'network' && node.request
        ? `${node.request.resourceType ?? 'Other'} ${node.request.url.replace(/^https?:\/\/[^/]+/, '')} (${node.request.transferSize} B)`
        : `main-thread task (${Math.round(node.duration / 1000)} ms observed)`;
    console.log(
      `${String(Math.round(startTime)).padStart(6)} → ${String(Math.round(endTime)).padStart(6)} ms  ${what}`,
    );
  }
}
