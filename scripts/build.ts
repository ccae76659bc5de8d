import { rm } from 'node:fs/promises';
import { build, type BuildOptions } from 'esbuild';

/**
 * The production build into dist/, which git ignores: Node 20 cannot run TypeScript and a
 * production install has no compiler, so dist/ is made where it is used, while the
 * devDependencies are still there: `npm run install:production` on a host (npm ci, this, then
 * npm prune --omit=dev), `npm pack` (the prepack script) and the image's build stage.
 *
 * One minified ES module per entry point, split so that `start` and `doctor` never load the
 * sandbox; packages stay external (npm installs them). Source maps point stack traces back at
 * src/ when run with `node --enable-source-maps`. `test/build/productionInstall.test.ts` builds
 * each of the three from a fresh clone and runs it.
 */
const buildOptions = {
	entryPoints: ['src/main.ts'],
	bundle: true,
	splitting: true,
	format: 'esm',
	platform: 'node',
	target: 'node20',
	packages: 'external',
	minify: true,
	sourcemap: true,
	sourcesContent: false,
	outdir: 'dist',
	entryNames: '[name]',
	chunkNames: 'chunks/[name]-[hash]',
	legalComments: 'none',
	logLevel: 'warning',
} as const satisfies BuildOptions;

// Chunk names carry a hash of their content: yesterday's chunks would stay behind otherwise.
await rm(buildOptions.outdir, { recursive: true, force: true });
await build(buildOptions);
