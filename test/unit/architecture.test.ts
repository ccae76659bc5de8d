import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve('src');

/** Every .ts file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		return entry.isDirectory() ? filesUnder(path) : entry.name.endsWith('.ts') ? [path] : [];
	});
}

/** What `file` imports of src/, as paths relative to src/ (`actions/role/RoleAction.ts`), type-only imports included. */
function importsOf(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1]!);
	return specifiers.map((specifier) => relative(SRC, resolve(dirname(file), specifier)).replace(/\.js$/, '.ts'));
}

/** The imports of every file under `src/<folder>` that `bad` says must not be there. */
function violations(folder: string, bad: (imported: string) => boolean): string[] {
	return filesUnder(join(SRC, folder)).flatMap((file) =>
		importsOf(file)
			.filter(bad)
			.map((imported) => `${relative(SRC, file)} imports ${imported}`),
	);
}

/** An action's own folder: `actions/role/…`, not the modules' list or the interfaces beside it. */
const insideAnAction = (imported: string): boolean => /^actions\/[^/]+\//.test(imported);

describe('the architecture: arrows point one way', () => {
	it('the boss, the command line and the engine never import an action’s folder: they iterate the modules', () => {
		expect([...violations('boss', insideAnAction), ...violations('cli', insideAnAction), ...violations('jobs', insideAnAction)]).toEqual([]);
	});

	it('the engine imports neither the boss, the command line nor the actions', () => {
		expect(violations('jobs', (imported) => /^(boss|cli|actions)\//.test(imported))).toEqual([]);
	});

	it('the bot reaches the sandbox (its own package) only from the demo, and only by its package name', () => {
		const users = filesUnder(SRC).filter((file) => /['"]@massnick\/discord-sandbox['"]/.test(readFileSync(file, 'utf8')));
		expect(users.map((file) => relative(SRC, file))).toEqual(['cli/runDemo.ts']);
		expect(
			filesUnder(SRC).flatMap((file) =>
				importsOf(file)
					.filter((imported) => imported.startsWith('..'))
					.map((imported) => `${relative(SRC, file)} imports ${imported}`),
			),
		).toEqual([]);
	});

	it('finds an import of an action’s folder when there is one (the check itself works)', () => {
		expect(importsOf(join(SRC, 'actions/actionModules.ts')).filter(insideAnAction).length).toBeGreaterThan(0);
	});
});

describe('no import cycles', () => {
	/** The import graph of src/, type-only imports included, and its cycles found by depth-first search. */
	function cycles(): string[][] {
		const graph = new Map(filesUnder(SRC).map((file) => [relative(SRC, file), importsOf(file).filter((imported) => imported.endsWith('.ts'))]));
		const found: string[][] = [];
		const state = new Map<string, 'open' | 'done'>();
		const path: string[] = [];
		const visit = (node: string): void => {
			state.set(node, 'open');
			path.push(node);
			for (const next of graph.get(node) ?? []) {
				if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
				else if (!state.has(next) && graph.has(next)) visit(next);
			}
			path.pop();
			state.set(node, 'done');
		};
		for (const node of graph.keys()) if (!state.has(node)) visit(node);
		return found;
	}

	it('no chain of imports in src/ comes back to where it started, type-only ones included', () => {
		expect(cycles().map((cycle) => cycle.join(' → '))).toEqual([]);
	});
});
