import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { filesUnder, type ImportGraph, importGraph, importsIn } from '../support/importGraph.js';

const SRC = resolve('src');
const graph = importGraph(SRC);

/** src/ and bench/ together, each file by its path from the repository's root (`bench/soak/main.ts`). */
const withBench: ImportGraph = new Map(
	['src', 'bench'].flatMap((dir) =>
		filesUnder(resolve(dir)).map((path): [string, string[]] => {
			const file = relative(resolve('.'), path);
			return [file, importsIn(file, readFileSync(path, 'utf8'))];
		}),
	),
);

/** `file imports imported`, for every import of a file under `folder` that `bad` says must not be there. */
function violations(of: ImportGraph, folder: string, bad: (imported: string, file: string) => boolean): string[] {
	return [...of].flatMap(([file, imports]) =>
		file.startsWith(`${folder}/`) ? imports.filter((imported) => bad(imported, file)).map((imported) => `${file} imports ${imported}`) : [],
	);
}

/** An action's own folder: `actions/role/…`, not the modules' list, the interfaces beside it, or a shared module. */
const actionFolderOf = (path: string): string | undefined => /^actions\/(?!shared\/)([^/]+)\//.exec(path)?.[1];
const insideAnAction = (imported: string): boolean => actionFolderOf(imported) !== undefined;

/** The command line imports nothing of the boss: what both show lives below them (`present/`). */
const cliImportsBoss = (of: ImportGraph): string[] => violations(of, 'cli', (imported) => imported.startsWith('boss/'));

/** An action's folder imports no other action's folder: what several share is a module under `actions/shared/`. */
const actionImportsAnother = (of: ImportGraph): string[] =>
	violations(of, 'actions', (imported, file) => {
		const own = actionFolderOf(file);
		const theirs = actionFolderOf(imported);
		return own !== undefined && theirs !== undefined && theirs !== own;
	});

/**
 * Imports from outside a folder that has an `index.ts` of a file inside it other than that
 * index: the index is the folder's surface. Files inside the folder import each other freely.
 */
function deepImports(of: ImportGraph): string[] {
	const surfaces = [...of.keys()].filter((file) => file.endsWith('/index.ts')).map((index) => dirname(index));
	return [...of].flatMap(([file, imports]) =>
		imports
			.filter((imported) => surfaces.some((folder) => imported.startsWith(`${folder}/`) && imported !== `${folder}/index.ts` && !file.startsWith(`${folder}/`)))
			.map((imported) => `${file} imports ${imported}`),
	);
}

/** The import graph's cycles, found by depth-first search. */
function cycles(of: ImportGraph): string[][] {
	const found: string[][] = [];
	const state = new Map<string, 'open' | 'done'>();
	const path: string[] = [];
	const visit = (node: string): void => {
		state.set(node, 'open');
		path.push(node);
		for (const next of of.get(node) ?? []) {
			if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
			else if (!state.has(next) && of.has(next)) visit(next);
		}
		path.pop();
		state.set(node, 'done');
	};
	for (const node of of.keys()) if (!state.has(node)) visit(node);
	return found;
}

/** Scratch trees, written to disk and read back the way src/ is, so each rule is seen to fail. */
const scratchRoot = mkdtempSync(join(tmpdir(), 'massnick-architecture-'));
afterAll(() => rmSync(scratchRoot, { recursive: true, force: true }));
let scratchCount = 0;
function scratchTree(files: Record<string, string>): ImportGraph {
	const root = join(scratchRoot, String(scratchCount++));
	for (const [file, text] of Object.entries(files)) {
		mkdirSync(dirname(join(root, file)), { recursive: true });
		writeFileSync(join(root, file), text);
	}
	return importGraph(root);
}

describe('the architecture: arrows point one way', () => {
	it('the boss, the command line and the engine never import an action’s folder: they iterate the modules', () => {
		expect([...violations(graph, 'boss', insideAnAction), ...violations(graph, 'cli', insideAnAction), ...violations(graph, 'jobs', insideAnAction)]).toEqual(
			[],
		);
	});

	it('the engine imports neither the boss, the command line nor the actions', () => {
		expect(violations(graph, 'jobs', (imported) => /^(boss|cli|actions)\//.test(imported))).toEqual([]);
	});

	it('the command line imports nothing of the boss', () => {
		expect(cliImportsBoss(graph)).toEqual([]);
	});

	it('no action’s folder imports another action’s folder', () => {
		expect(actionImportsAnother(graph)).toEqual([]);
	});

	it('a folder with an index.ts is imported from outside only through it', () => {
		expect(deepImports(graph)).toEqual([]);
	});

	it('the bench imports a folder of src/ with an index.ts only through it: the engine through src/jobs/index.ts', () => {
		expect(deepImports(withBench).filter((violation) => violation.startsWith('bench/'))).toEqual([]);
		expect(withBench.get('bench/journalIndexMemory.ts')).toContain('src/jobs/index.ts');
	});

	it('the bot reaches the sandbox (its own package) only from the demo, and only by its package name', () => {
		const users = filesUnder(SRC).filter((file) => /['"]@massnick\/discord-sandbox['"]/.test(readFileSync(file, 'utf8')));
		expect(users.map((file) => relative(SRC, file))).toEqual(['cli/runDemo.ts']);
		expect(
			[...graph].flatMap(([file, imports]) => imports.filter((imported) => imported.startsWith('..')).map((imported) => `${file} imports ${imported}`)),
		).toEqual([]);
	});

	it('the health checks and metrics are `massnick start`’s and `massnick run`’s: only they import health/, and only health/ imports prom-client', () => {
		const users = [...graph].filter(([file, imports]) => !file.startsWith('health/') && imports.some((imported) => imported.startsWith('health/')));
		expect(users.map(([file]) => file).sort()).toEqual(['cli/runHealth.ts', 'cli/runStart.ts']);
		const prom = filesUnder(SRC).filter((file) => /from ['"]prom-client['"]/.test(readFileSync(file, 'utf8')));
		expect(prom.map((file) => relative(SRC, file))).toEqual(['health/MassnickMetrics.ts']);
	});

	it('no file in src/ is over 300 lines, and the job manager stays a façade of about 150', () => {
		const lineCount = (file: string): number => readFileSync(file, 'utf8').split('\n').length - 1;
		const long = filesUnder(SRC)
			.filter((file) => lineCount(file) > 300)
			.map((file) => `${relative(SRC, file)}: ${lineCount(file)} lines`);
		expect(long).toEqual([]);
		expect(lineCount(join(SRC, 'jobs/JobManager.ts'))).toBeLessThanOrEqual(165);
	});

	it('no chain of imports in src/ comes back to where it started, type-only ones included', () => {
		expect(cycles(graph).map((cycle) => cycle.join(' → '))).toEqual([]);
	});
});

describe('each rule finds what breaks it (tried on scratch trees)', () => {
	it('finds an import of an action’s folder in the modules’ list of src/ (the check itself works)', () => {
		expect((graph.get('actions/actionModules.ts') ?? []).filter(insideAnAction).length).toBeGreaterThan(0);
	});

	it('a cli file importing the boss, by a value or a type, is reported', () => {
		const tree = scratchTree({
			'cli/run.ts': "import { format } from '../boss/format.js';\nimport type { Boss } from '../boss/Boss.js';\n",
			'cli/fine.ts': "import { format } from '../present/index.js';\n",
			'boss/format.ts': 'export const format = 1;\n',
		});
		expect(cliImportsBoss(tree)).toEqual(['cli/run.ts imports boss/format.ts', 'cli/run.ts imports boss/Boss.ts']);
	});

	it('an action importing another action’s folder is reported; its own folder, the shared modules and the interfaces are not', () => {
		const tree = scratchTree({
			'actions/clear/clearAction.ts': [
				"import { Base } from '../nickname/Base.js';",
				"import { own } from './own.js';",
				"import { shared } from '../shared/nicknameEdits/index.js';",
				"import type { ActionModule } from '../ActionModule.js';",
			].join('\n'),
			'actions/shared/nicknameEdits/index.ts': "export { Base } from '../../nickname/Base.js';\n",
			'actions/actionModules.ts': "import { clearModule } from './clear/clearModule.js';\n",
		});
		expect(actionImportsAnother(tree)).toEqual(['actions/clear/clearAction.ts imports actions/nickname/Base.ts']);
	});

	it('a deep import into a folder with an index.ts, from outside it, is reported; its index and its own files are not', () => {
		const tree = scratchTree({
			'config/index.ts': "export * from './Config.js';\n",
			'config/Config.ts': "import { deepFreeze } from './deepFreeze.js';\n",
			'config/deepFreeze.ts': 'export const deepFreeze = 1;\n',
			'boss/Boss.ts': "import type { Config } from '../config/Config.js';\nimport { loadConfig } from '../config/index.js';\n",
			'actions/index.ts': "export * from './sanitize/index.js';\n",
			'actions/sanitize/index.ts': "export * from './cleanName.js';\n",
			'cli/run.ts': "import { cleanName } from '../actions/sanitize/index.js';\nimport { Job } from '../jobs/Job.js';\n",
		});
		expect(deepImports(tree)).toEqual(['boss/Boss.ts imports config/Config.ts', 'cli/run.ts imports actions/sanitize/index.ts']);
	});

	it('a deep import into jobs/ from outside it is reported, its admission folder included; jobs/ itself imports its own files freely', () => {
		const tree = scratchTree({
			'jobs/index.ts': "export { Job } from './Job.js';\nexport { JobManager } from './JobManager.js';\n",
			'jobs/Job.ts': 'export class Job {}\n',
			'jobs/JobManager.ts': "import { Job } from './Job.js';\nimport { Admission } from './admission/index.js';\n",
			'jobs/admission/index.ts': "export { Admission } from './Admission.js';\n",
			'jobs/admission/Admission.ts': 'export class Admission {}\n',
			'boss/Boss.ts': "import { JobManager } from '../jobs/index.js';\nimport type { Job } from '../jobs/Job.js';\n",
			'cli/run.ts': "import { Admission } from '../jobs/admission/index.js';\n",
		});
		expect(deepImports(tree)).toEqual(['boss/Boss.ts imports jobs/Job.ts', 'cli/run.ts imports jobs/admission/index.ts']);
	});

	it('a deep import from the bench into src/jobs/ is reported; src/jobs/index.ts and a folder without an index are not', () => {
		const tree = scratchTree({
			'src/jobs/index.ts': "export { Job } from './Job.js';\n",
			'src/jobs/Job.ts': 'export class Job {}\n',
			'src/workers/partition.ts': 'export const workerIndexOf = 1;\n',
			'bench/soak/main.ts': "import { Job } from '../../src/jobs/index.js';\nimport { workerIndexOf } from '../../src/workers/partition.js';\n",
			'bench/journal.ts': "import type { Job } from '../src/jobs/Job.js';\n",
		});
		expect(deepImports(tree)).toEqual(['bench/journal.ts imports src/jobs/Job.ts']);
	});

	it('a chain of imports that comes back is reported', () => {
		const tree = scratchTree({ 'a.ts': "import { b } from './b.js';\n", 'b.ts': "import type { a } from './a.js';\n" });
		expect(cycles(tree).map((cycle) => cycle.join(' → '))).toEqual(['a.ts → b.ts → a.ts']);
	});
});
