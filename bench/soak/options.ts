import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CONFIG_DIR } from '../paths.js';

/** What `npm run soak -- …` was asked for, and the repository's settings it is measured against. */
export interface SoakOptions {
	members: number;
	workers: number;
	timeScale: number;
	seed: number;
	/** What each worker can have on the wire (`workers.maxInFlight` of config/massnick.json). */
	maxInFlight: number;
	/** `rest.timeoutMs` of config/massnick.json: the latency fault goes past it. */
	restTimeoutMs: number;
	/** config/massnick.json as it is, which the soak's own config starts from. */
	settings: Record<string, unknown>;
}

/** What `npm run soak` takes, printed with an error in its flags. */
export const SOAK_USAGE = 'usage: npm run soak [-- --members 200000 --workers 10 --time-scale 50 --seed 20261201]';

/** The nickname template every rename gives. */
export const NAME = 'Soak {id}';

/** A flag's value as a number, or an error naming the flag and what it takes. */
function numberOf(flag: string, value: string, { integer }: { integer: boolean }): number {
	const number = Number(value);
	if (!Number.isFinite(number) || number <= 0 || (integer && !Number.isInteger(number))) {
		throw new Error(`soak: --${flag} takes a ${integer ? 'whole number' : 'number'} above 0, not "${value}"`);
	}
	return number;
}

/** Reads `--members`, `--workers`, `--time-scale` and `--seed` from `args`, and config/massnick.json. */
export async function soakOptions(args: readonly string[]): Promise<SoakOptions> {
	const { values } = parseArgs({
		args: [...args],
		options: {
			members: { type: 'string', default: '200000' },
			workers: { type: 'string', default: '10' },
			'time-scale': { type: 'string', default: '50' },
			seed: { type: 'string', default: '20261201' },
		},
	});
	const settings = JSON.parse(await readFile(join(CONFIG_DIR, 'massnick.json'), 'utf8')) as {
		workers: { maxInFlight: number };
		rest: { timeoutMs: number };
	} & Record<string, unknown>;
	return {
		members: numberOf('members', values.members, { integer: true }),
		workers: numberOf('workers', values.workers, { integer: true }),
		timeScale: numberOf('time-scale', values['time-scale'], { integer: false }),
		seed: numberOf('seed', values.seed, { integer: true }),
		maxInFlight: settings.workers.maxInFlight,
		restTimeoutMs: settings.rest.timeoutMs,
		settings,
	};
}
