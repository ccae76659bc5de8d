import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The imports of a source tree, for the architecture test: each `.ts` file under `root`, as a
 * path relative to it (`actions/role/RoleAction.ts`), with what it imports by a relative path,
 * resolved the same way (`.js` read as `.ts`; one that leaves the tree starts with `..`).
 * Type-only imports are included: a type is an arrow too.
 */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** Every .ts file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		return entry.isDirectory() ? filesUnder(path) : entry.name.endsWith('.ts') ? [path] : [];
	});
}

/** What the source `text` of `file` (relative to the tree's root) imports by relative paths. */
export function importsIn(file: string, text: string): string[] {
	const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1]!);
	const root = resolve('/', '__tree__');
	return specifiers.map((specifier) => relative(root, resolve(root, dirname(file), specifier)).replace(/\.js$/, '.ts'));
}

/** The import graph of the tree at `root`. */
export function importGraph(root: string): ImportGraph {
	return new Map(
		filesUnder(root).map((path) => {
			const file = relative(root, path);
			return [file, importsIn(file, readFileSync(path, 'utf8'))];
		}),
	);
}
