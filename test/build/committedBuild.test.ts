import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { buildOptions } from '../../scripts/build.js';

async function filesUnder(dir: string): Promise<Map<string, string>> {
	const files = new Map<string, string>();
	for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
		if (!entry.isFile()) continue;
		const path = join(entry.parentPath, entry.name);
		files.set(relative(dir, path), await readFile(path, 'utf8'));
	}
	return files;
}

/**
 * A production install has no compiler, so the compiled bot is committed in dist/. This keeps
 * it from drifting: any change to src/ without `npm run build` fails here.
 */
describe('the committed build', () => {
	it('dist/ is exactly what npm run build makes of src/ (run npm run build and commit dist/ if not)', async () => {
		const { outputFiles } = await build({ ...buildOptions, write: false, logLevel: 'silent' });
		const fresh = new Map(outputFiles.map((file) => [relative(buildOptions.outdir, file.path), file.text]));
		const committed = await filesUnder(buildOptions.outdir);
		expect([...committed.keys()].sort()).toEqual([...fresh.keys()].sort());
		const stale = [...fresh].filter(([path, text]) => committed.get(path) !== text).map(([path]) => path);
		expect(stale).toEqual([]);
	});
});
