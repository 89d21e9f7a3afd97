/** Building blocks for benchmarks (run.ts is the entry point; importing it would start a run). */
export { loadBenchConfig, type BenchConfig, type LoadToolName } from './bench-config.js';
export { startBaselineServer, type BaselineServer } from './baseline.js';
export { compareWithBaseline, type ComparisonResult, type Target } from './compare.js';
export { detectLoadTool, measureEndpoint, type LoadResult, type MeasureOptions } from './load.js';
export { cleanupAll, freePort, installCleanupHandlers, onCleanup, runChild, startChild, stopChild, waitForHttp, type StartedChild } from './processes.js';
export { formatReport, reportJson, type BenchReport, type DatabaseFigures, type ScenarioFigures } from './report.js';
export {
  EXTRA_SCENARIOS,
  EXTRA_STEPS,
  OPTIONAL_STEP_MODULES,
  SCENARIOS,
  type BenchCredentials,
  type BenchStep,
  type Scenario,
  type ScenarioContext,
  type StepContext,
  type StepFigures,
} from './scenarios.js';
export { login, startApiServer, type ApiServer, type DatabaseKind } from './server-process.js';
export { median, spread, type Spread } from './stats.js';
