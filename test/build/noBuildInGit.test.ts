import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** Paths a build makes: `npm run build`, `npm run bench`, `npm pack`. */
const BUILD_OUTPUT = ['dist/main.js', 'dist/chunks/chunk-ABCDEFGH.js', 'dist-bench/bench/main.js', 'massnick-0.1.0.tgz'];
const isBuildOutput = (path: string) => /^dist(-bench)?\//.test(path) || path.endsWith('.tgz');

/**
 * The build is made where it is used (a production install, `npm pack`, the image's build stage),
 * never committed: a committed build conflicts between branches and cannot be reviewed.
 */
describe('the repository', () => {
	it('tracks no build output: nothing under dist/ or dist-bench/, no packed tarball', async () => {
		const { stdout } = await run('git', ['ls-files', '-z'], { maxBuffer: 16 * 1024 * 1024 });
		expect(stdout.split('\0').filter(isBuildOutput)).toEqual([]);
	});

	it('ignores build output, so `git add -A` after a build adds none of it', async () => {
		// --no-index: the rules alone, whether or not a path is tracked today.
		const { stdout } = await run('git', ['check-ignore', '--no-index', ...BUILD_OUTPUT]);
		expect(stdout.split('\n').filter(Boolean)).toEqual(BUILD_OUTPUT);
	});
});
