import { fileURLToPath } from 'node:url';

/** The CLI the sandbox and the bot run from, as `npm run sandbox` and `npm start` do. */
export const MAIN_SCRIPT = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/** The repository's `config/massnick.json`, which the bot's benchmark config starts from. */
export const CONFIG_DIR = fileURLToPath(new URL('../config/', import.meta.url));

/** Where a full (`--quick` or default) run writes its results, for committing. */
export const RESULTS_FILE = fileURLToPath(new URL('./results.json', import.meta.url));

/** Where runs of a single scenario or with overrides write theirs (git-ignored). */
export const LOCAL_RESULTS_FILE = fileURLToPath(new URL('./results.local.json', import.meta.url));

export const SINGLE_TOKEN_SCRIPT = fileURLToPath(new URL('./baselines/singleToken.ts', import.meta.url));
export const DESIGN_2021_SCRIPT = fileURLToPath(new URL('./baselines/design2021.ts', import.meta.url));
