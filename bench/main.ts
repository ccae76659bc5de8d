import { runBench } from './runBench.js';

/** `npm run bench`: the benchmark's own entry point; the product never imports bench/. */
process.exitCode = await runBench(process.argv.slice(2));
