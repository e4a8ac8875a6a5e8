/**
 * Child process of import-10m.embedded.test.ts: runs `toolgate passwords import INPUT --output OUTPUT`
 * through runPasswordsImport and prints, as its last stdout line, JSON with the exit code, the resident set
 * size just before the import, the largest size sampled during it, and the process's maximum resident set
 * size.
 */
import { runPasswordsImport } from '../../cli/passwords-import.js';

const [input, output] = process.argv.slice(2) as [string, string];
globalThis.gc?.();
const baselineRss = process.memoryUsage().rss;
let sampledPeakRss = baselineRss;
const sampler = setInterval(() => {
  sampledPeakRss = Math.max(sampledPeakRss, process.memoryUsage().rss);
}, 5);
const started = performance.now();
const code = await runPasswordsImport([input, '--output', output], { dataDir: '/nonexistent' });
const elapsedMs = performance.now() - started;
clearInterval(sampler);
sampledPeakRss = Math.max(sampledPeakRss, process.memoryUsage().rss);
const maxRss = process.resourceUsage().maxRSS * 1024;
process.stdout.write(`${JSON.stringify({ code, baselineRss, sampledPeakRss, maxRss, elapsedMs })}\n`);
