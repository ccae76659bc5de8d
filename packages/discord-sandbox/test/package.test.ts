import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The package's boundary: its code imports nothing of the bot's (nothing outside this folder), and
 * its package.json lists every package its code imports: `src/` from `dependencies` (what a user
 * of the package installs), the tests from either.
 */
const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as {
	dependencies: Record<string, string>;
	devDependencies: Record<string, string>;
};

function filesUnder(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		return entry.isDirectory() ? filesUnder(path) : /\.ts$/.test(entry.name) ? [path] : [];
	});
}

/** Every module specifier a file imports or re-exports, type-only and dynamic imports included, as TypeScript reads them. */
function specifiersOf(file: string): string[] {
	return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((imported) => imported.fileName);
}

/** `discord-api-types/v10` → `discord-api-types`, `@discordjs/rest` stays itself. */
function packageOf(specifier: string): string {
	const parts = specifier.split('/');
	return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

const builtin = (specifier: string): boolean => specifier.startsWith('node:') || builtinModules.includes(specifier);

function importsIn(folder: string): { file: string; specifier: string }[] {
	return filesUnder(join(PACKAGE, folder)).flatMap((file) => specifiersOf(file).map((specifier) => ({ file: relative(PACKAGE, file), specifier })));
}

const code = [...importsIn('src'), ...importsIn('test')];
const packagesOf = (imports: { specifier: string }[]): Set<string> =>
	new Set(imports.filter(({ specifier }) => !specifier.startsWith('.') && !builtin(specifier)).map(({ specifier }) => packageOf(specifier)));

describe('the sandbox package', () => {
	it('imports nothing outside its own folder: no path climbs out of it, and no package of the bot', () => {
		const escaping = code.filter(({ file, specifier }) => specifier.startsWith('.') && !resolve(PACKAGE, dirname(file), specifier).startsWith(PACKAGE + sep));
		expect(escaping).toEqual([]);
		expect([...packagesOf(code)].filter((name) => name === 'massnick' || name.startsWith('@massnick/'))).toEqual([]);
	});

	it('lists in dependencies every package src/ imports, and in either list every package the tests import', () => {
		const runtime = Object.keys(manifest.dependencies);
		const all = [...runtime, ...Object.keys(manifest.devDependencies)];
		expect([...packagesOf(importsIn('src'))].filter((name) => !runtime.includes(name))).toEqual([]);
		expect([...packagesOf(importsIn('test'))].filter((name) => !all.includes(name))).toEqual([]);
	});

	it('lists no dependency its code does not import (the tools that run it aside)', () => {
		const tools = new Set(['tsx', '@types/ws']);
		const imported = packagesOf(code);
		imported.add('vitest'); // vitest.config.ts
		const listed = [...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)];
		expect(listed.filter((name) => !tools.has(name) && !imported.has(name))).toEqual([]);
	});

	it('sees the imports it checks (the checks themselves work)', () => {
		expect([...packagesOf(importsIn('src'))]).toEqual(expect.arrayContaining(['discord-api-types', 'ws']));
		expect(code.some(({ specifier }) => specifier === './startSandbox.js')).toBe(true);
	});
});
