import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { ConfigError, type ConfigProblem } from '../errors.js';
import type { Config } from './Config.js';
import { deepFreeze } from './deepFreeze.js';
import { readEnv } from './readEnv.js';
import { readSettings } from './readSettings.js';

/** The settings file inside `configDir`. */
export const SETTINGS_FILE = 'massnick.json';

export interface LoadConfigOptions {
	/** The real environment; its values win over the `.env` file's. */
	env?: Readonly<Record<string, string | undefined>>;
	/** Where `massnick.json` lives. */
	configDir?: string;
	/** The `.env` file, read if present; `false` reads none. */
	dotenvPath?: string | false;
}

/**
 * Reads `.env`, the environment and `config/massnick.json` into one validated, deeply frozen
 * {@link Config}. This is the only place massnick reads `process.env`; it does not write to it,
 * so the tokens do not leak into child processes.
 *
 * A missing `.env` or `massnick.json` is fine (every setting has a default; the environment
 * may hold the secrets).
 *
 * @throws {ConfigError} listing every problem at once.
 */
export function loadConfig({ env = process.env, configDir, dotenvPath = '.env' }: LoadConfigOptions = {}): Config {
	const problems: ConfigProblem[] = [];

	let fromFile: Record<string, string> = {};
	if (dotenvPath !== false) {
		const text = readOptional(dotenvPath, problems);
		if (text !== undefined) fromFile = parseDotenv(text);
	}
	const merged: Record<string, string | undefined> = { ...fromFile };
	for (const [key, value] of Object.entries(env)) if (value !== undefined) merged[key] = value;
	const fromEnv = readEnv(merged);
	problems.push(...fromEnv.problems);

	// The settings folder: the caller's, else MASSNICK_CONFIG_DIR, else config/.
	const settingsPath = join(configDir ?? (merged.MASSNICK_CONFIG_DIR?.trim() || 'config'), SETTINGS_FILE);
	let raw: unknown;
	const text = readOptional(settingsPath, problems);
	if (text !== undefined) {
		try {
			raw = JSON.parse(text);
		} catch (error) {
			problems.push({ key: settingsPath, message: `is not valid JSON (${(error as Error).message}); fix it or delete it to use the defaults` });
		}
	}
	const fromSettings = readSettings(raw, settingsPath);
	problems.push(...fromSettings.problems);

	if (problems.length > 0) throw new ConfigError(problems);
	return deepFreeze<Config>({ ...fromEnv.settings, ...fromSettings.settings });
}

function readOptional(path: string, problems: ConfigProblem[]): string | undefined {
	try {
		return readFileSync(path, 'utf8');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
		problems.push({ key: path, message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` });
		return undefined;
	}
}
