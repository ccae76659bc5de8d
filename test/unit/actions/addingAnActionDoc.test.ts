import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type ActionModule, actionModules } from '../../../src/actions/index.js';

const ACTIONS = resolve('src/actions');
const GUIDE = 'docs/adding-an-action.md';

/** One module of the list as a reader finds it: its folder, the name it is exported by, its command. */
interface ModulePlace {
	readonly folder: string;
	readonly exportName: string;
	readonly command: string;
}

/**
 * Where each module of `actionModules` lives: the action folder whose file exports that very
 * object, found by importing every file of every folder, so a renamed file or module is found
 * under its new name.
 */
async function placesOf(modules: readonly ActionModule[]): Promise<ModulePlace[]> {
	const places = new Map<ActionModule, ModulePlace>();
	const folders = readdirSync(ACTIONS, { withFileTypes: true }).filter((entry) => entry.isDirectory());
	for (const { name: folder } of folders) {
		for (const file of readdirSync(join(ACTIONS, folder)).filter((name) => name.endsWith('.ts'))) {
			const exported = (await import(pathToFileURL(join(ACTIONS, folder, file)).href)) as Record<string, unknown>;
			for (const [exportName, value] of Object.entries(exported)) {
				const module = modules.find((candidate) => candidate === value);
				if (module) places.set(module, { folder, exportName, command: module.command.name });
			}
		}
	}
	return modules.map((module) => {
		const place = places.get(module);
		if (!place) throw new Error(`no folder under src/actions/ exports the module of /${module.command.name}`);
		return place;
	});
}

/**
 * What the guide leaves out of the list as the code has it: a module whose folder or command it
 * never names, and the modules its quoted `actionModules` line lacks or has out of order.
 */
function missingFrom(guide: string, places: readonly ModulePlace[]): string[] {
	const missing = places.flatMap(({ folder, command }) => [
		...(guide.includes(`src/actions/${folder}/`) ? [] : [`the folder src/actions/${folder}/`]),
		// The command as people type it (`/clearnicks`), not a folder's path (`src/actions/clear/`).
		...(new RegExp(`(?<![\\w/.-])/${command}(?![\\w/-])`).test(guide) ? [] : [`the command /${command}`]),
	]);
	const quoted = /export const actionModules[^=]*=\s*\[([^\]]*)\]/
		.exec(guide)?.[1]
		?.split(',')
		.map((name) => name.trim());
	const expected = places.map(({ exportName }) => exportName);
	if (JSON.stringify(quoted) !== JSON.stringify(expected)) missing.push(`the list as actionModules.ts has it: [${expected.join(', ')}]`);
	return missing;
}

describe('docs/adding-an-action.md is current', () => {
	it('names every action module of src/actions/index.ts: its folder, its command, and the list line as the code has it', async () => {
		const places = await placesOf(actionModules);
		expect(places.length).toBe(actionModules.length);
		expect(missingFrom(readFileSync(GUIDE, 'utf8'), places)).toEqual([]);
	});

	it('reports a module the guide leaves out (the check itself works)', async () => {
		const places = await placesOf(actionModules);
		const last = places.at(-1)!;
		// The guide as it was with three modules: the last one's folder, command and list entry gone.
		const stale = readFileSync(GUIDE, 'utf8')
			.replaceAll(`src/actions/${last.folder}/`, '')
			.replaceAll(`/${last.command}`, '')
			.replace(`, ${last.exportName}]`, ']');
		expect(missingFrom(stale, places)).toEqual([
			`the folder src/actions/${last.folder}/`,
			`the command /${last.command}`,
			`the list as actionModules.ts has it: [${places.map(({ exportName }) => exportName).join(', ')}]`,
		]);
	});
});
