/**
 * What the sensor-data panel loads once it is drawn (decision 104): the chart and the data-quality panel under it,
 * with uPlot, as one dynamic import, so the modules they share stay in their chunk rather than in the entry's.
 */
export { QualityPanel } from './quality-panel';
export { SensorChart } from './sensor-chart';
