import { rm } from 'node:fs/promises';
import { build, type BuildOptions } from 'esbuild';

/**
 * The production build, committed in dist/: Node 20 cannot run TypeScript and a production
 * install (`npm ci --omit=dev`) has no compiler, so the compiled bot ships with the repository.
 *
 * One minified ES module per entry point, split so that `start` and `doctor` never load the
 * sandbox; packages stay external (npm installs them). Source maps point stack traces back at
 * src/ when run with `node --enable-source-maps`. `test/build/committedBuild.test.ts` builds
 * with these options in memory and fails when dist/ differs.
 */
export const buildOptions = {
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

if (import.meta.url === `file://${process.argv[1]}`) {
	// Chunk names carry a hash of their content: yesterday's chunks would stay behind otherwise.
	await rm(buildOptions.outdir, { recursive: true, force: true });
	await build(buildOptions);
}
