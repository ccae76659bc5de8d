import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The benchmark runs compiled (`npm run bench` builds first, as `npm start` does) or under tsx
 * while it is being worked on; the scripts it starts are the same kind as itself.
 */
const here = fileURLToPath(import.meta.url);
const extension = here.endsWith('.ts') ? '.ts' : '.js';

/** The repository root: the nearest folder above with a package.json (dist/ has none). */
const root = ((): string => {
	let dir = dirname(here);
	while (!existsSync(join(dir, 'package.json'))) {
		const parent = dirname(dir);
		if (parent === dir) throw new Error(`no package.json above ${here}`);
		dir = parent;
	}
	return dir;
})();

/** The code beside this file: `src/`'s twin under `dist/` when compiled. */
const codeRoot = join(dirname(here), '..');

/** The CLI the sandbox and the bot run from, as `npm run sandbox` and `npm start` do. */
export const MAIN_SCRIPT = join(codeRoot, 'src', `main${extension}`);

/**
 * The sandbox package's entry point, as `npm run sandbox` runs it: TypeScript, run with tsx's
 * loader (the package is consumed as source), whether the bench itself runs compiled or not.
 */
export const SANDBOX_SCRIPT = join(root, 'packages', 'discord-sandbox', 'src', 'main.ts');

/** The repository's `config/massnick.json`, which the bot's benchmark config starts from. */
export const CONFIG_DIR = join(root, 'config');

/** Where a full (`--quick` or default) run writes its results, for committing. */
export const RESULTS_FILE = join(root, 'bench', 'results.json');

/** Where runs of a single scenario or with overrides write theirs (git-ignored). */
export const LOCAL_RESULTS_FILE = join(root, 'bench', 'results.local.json');

/** A scenario's own results file in bench/ (`results-realtime.json`). */
export function benchResultsFile(name: string): string {
	return join(root, 'bench', name);
}

/** The preload that reads a massnick process's event-loop delay (eventLoopProbe.ts). */
export const EVENT_LOOP_PROBE = join(codeRoot, 'bench', `eventLoopProbe${extension}`);

export const SINGLE_TOKEN_SCRIPT = join(codeRoot, 'bench', 'baselines', `singleToken${extension}`);
export const DESIGN_2021_SCRIPT = join(codeRoot, 'bench', 'baselines', `design2021${extension}`);
