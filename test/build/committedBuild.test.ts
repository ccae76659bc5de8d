import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const TSC = join('node_modules', 'typescript', 'bin', 'tsc');

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
	let outDir = '';

	afterAll(async () => {
		if (outDir) await rm(outDir, { recursive: true, force: true });
	});

	it('dist/ is exactly what npm run build makes of src/ (run npm run build and commit dist/ if not)', async () => {
		outDir = await mkdtemp(join(tmpdir(), 'massnick-build-'));
		await run(process.execPath, [TSC, '-p', 'tsconfig.build.json', '--outDir', outDir]);
		const fresh = await filesUnder(outDir);
		const committed = await filesUnder('dist');
		expect([...committed.keys()].sort()).toEqual([...fresh.keys()].sort());
		const stale = [...fresh].filter(([path, text]) => committed.get(path) !== text).map(([path]) => path);
		expect(stale).toEqual([]);
	}, 120_000);
});
