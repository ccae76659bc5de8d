import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/loadConfig.js';
import { readWorkerIds } from '../../../src/config/readWorkerIds.js';
import { ConfigError, type ConfigProblem } from '../../../src/errors.js';

const BOSS = 'MTAwMDAwMDAwMDAwMDAwMDAx.GbOsS1.boss-secret-aaaaaaaaaaaaaaaaaaaaaaaa';
const TOKENS = Array.from({ length: 6 }, (_, i) => `MTAwMDAwMDAwMDAwMDAwMDA${i}.GwOrk${i}.worker-${i}-${'b'.repeat(24)}`);
const GUILD = '175928847299117063';

function load(env: Record<string, string | undefined>) {
	return loadConfig({ env: { GUILD_ID: GUILD, ...env }, configDir: '/nonexistent', dotenvPath: false });
}

function problemsOf(env: Record<string, string | undefined>): ConfigProblem[] {
	try {
		load(env);
	} catch (error) {
		expect(error).toBeInstanceOf(ConfigError);
		return [...(error as ConfigError).problems];
	}
	throw new Error('expected a ConfigError');
}

const tokens = (count: number) => TOKENS.slice(0, count).join(',');

describe('readWorkerIds', () => {
	it('reads a list, a range, both, and none, in the order written', () => {
		expect(readWorkerIds('0,3,5', 10)).toEqual([0, 3, 5]);
		expect(readWorkerIds('3-5', 10)).toEqual([3, 4, 5]);
		expect(readWorkerIds('7, 0-1', 10)).toEqual([7, 0, 1]);
		expect(readWorkerIds('none', 10)).toEqual([]);
	});

	it('refuses ids outside the count, twice, backwards or not numbers, saying which', () => {
		expect(readWorkerIds('3,10', 10)).toBe('worker 10 is not among the 10 workers of WORKER_COUNT (ids 0 to 9)');
		expect(readWorkerIds('8-12', 10)).toBe('worker 12 is not among the 10 workers of WORKER_COUNT (ids 0 to 9)');
		expect(readWorkerIds('1,0-2', 10)).toBe('worker 1 is named twice; each worker is held by one process');
		expect(readWorkerIds('5-3', 10)).toBe('the range 5-3 runs backwards; write it low to high (3-5)');
		expect(readWorkerIds('w3', 10)).toMatch(/^"w3" is not a worker id/);
	});

	it('a huge range is refused before it is spelled out', () => {
		expect(readWorkerIds('0-900000000', 10)).toMatch(/worker 900000000 is not among/);
	});
});

describe('loadConfig: a fleet split over processes', () => {
	it('with none of the keys set, the process holds one worker per token, as before fleets', () => {
		const config = load({ BOSS_TOKEN: BOSS, WORKER_TOKENS: tokens(3) });
		expect(config.workerCount).toBe(3);
		expect(config.heldWorkers).toEqual([
			{ id: 0, token: TOKENS[0] },
			{ id: 1, token: TOKENS[1] },
			{ id: 2, token: TOKENS[2] },
		]);
		expect(config.listerToken).toBe('');
	});

	it('WORKER_IDS with every token: the process takes the tokens at its ids', () => {
		const config = load({ BOSS_TOKEN: BOSS, WORKER_TOKENS: tokens(6), WORKER_IDS: '3-5' });
		expect(config.workerCount).toBe(6);
		expect(config.heldWorkers).toEqual([3, 4, 5].map((id) => ({ id, token: TOKENS[id] })));
		// Every token stays a secret, held or not.
		expect(config.workerTokens).toEqual(TOKENS);
	});

	it('WORKER_IDS with only the held workers’ tokens: they go in the order of the ids', () => {
		const config = load({ WORKER_TOKENS: `${TOKENS[5]},${TOKENS[2]}`, WORKER_COUNT: '6', WORKER_IDS: '5,2' });
		expect(config.heldWorkers).toEqual([
			{ id: 2, token: TOKENS[2] },
			{ id: 5, token: TOKENS[5] },
		]);
	});

	it('JOB_COMPLETION_INDEX makes the process that one worker, with every pod sharing one Secret', () => {
		const config = load({ WORKER_TOKENS: tokens(6), WORKER_COUNT: '6', JOB_COMPLETION_INDEX: '4', LISTER_TOKEN: BOSS });
		expect(config.heldWorkers).toEqual([{ id: 4, token: TOKENS[4] }]);
		expect(config.workerCount).toBe(6);
		// A pod runs no boss: BOSS_TOKEN may be left out, and LISTER_TOKEN lists instead.
		expect(config.bossToken).toBe('');
		expect(config.listerToken).toBe(BOSS);
	});

	it('JOB_COMPLETION_INDEX without WORKER_COUNT is refused: every pod must split the same way', () => {
		const problems = problemsOf({ WORKER_TOKENS: tokens(6), JOB_COMPLETION_INDEX: '1' });
		expect(problems.map((problem) => problem.key)).toEqual(['WORKER_COUNT']);
		expect(problems[0]!.message).toMatch(/^required when JOB_COMPLETION_INDEX is set/);
	});

	it('an index at or past WORKER_COUNT names both keys’ values', () => {
		const [problem] = problemsOf({ WORKER_TOKENS: tokens(6), WORKER_COUNT: '6', JOB_COMPLETION_INDEX: '6' });
		expect(problem).toEqual({
			key: 'JOB_COMPLETION_INDEX',
			message: "is 6, but WORKER_COUNT is 6 (ids 0 to 5): the Job's completions and WORKER_COUNT must be equal, or JOB_COMPLETIONS set to the completions",
		});
	});

	it('JOB_COMPLETIONS makes each pod hold the workers from its index on, a stride of the pods: fewer pods than workers, one Secret', () => {
		const at = (index: string) =>
			load({ WORKER_TOKENS: tokens(6), WORKER_COUNT: '6', JOB_COMPLETIONS: '4', JOB_COMPLETION_INDEX: index, LISTER_TOKEN: BOSS }).heldWorkers;
		expect(at('0')).toEqual([
			{ id: 0, token: TOKENS[0] },
			{ id: 4, token: TOKENS[4] },
		]);
		expect(at('1').map((worker) => worker.id)).toEqual([1, 5]);
		expect(at('3').map((worker) => worker.id)).toEqual([3]);
		// Every worker in exactly one pod.
		expect(['0', '1', '2', '3'].flatMap((index) => at(index).map((worker) => worker.id)).sort()).toEqual([0, 1, 2, 3, 4, 5]);
	});

	it('JOB_COMPLETIONS past WORKER_COUNT, or an index past it, is refused with the fix', () => {
		expect(problemsOf({ WORKER_TOKENS: tokens(6), WORKER_COUNT: '6', JOB_COMPLETIONS: '7', JOB_COMPLETION_INDEX: '0' })).toEqual([
			{ key: 'JOB_COMPLETIONS', message: `"7" is not a number of pods for 6 workers; give the Job's completions, a whole number from 1 to WORKER_COUNT (6)` },
		]);
		expect(problemsOf({ WORKER_TOKENS: tokens(6), WORKER_COUNT: '6', JOB_COMPLETIONS: '3', JOB_COMPLETION_INDEX: '3' })).toEqual([
			{ key: 'JOB_COMPLETION_INDEX', message: "is 3, but JOB_COMPLETIONS is 3 (indexes 0 to 2): set JOB_COMPLETIONS to the Job's completions" },
		]);
	});

	it('WORKER_IDS beside JOB_COMPLETION_INDEX is refused', () => {
		expect(problemsOf({ WORKER_TOKENS: tokens(6), WORKER_COUNT: '6', JOB_COMPLETION_INDEX: '1', WORKER_IDS: '1' }).map((problem) => problem.key)).toEqual([
			'WORKER_IDS',
		]);
	});

	it('a token count that is neither every worker nor the held ones says both ways to fix it', () => {
		const [problem] = problemsOf({ BOSS_TOKEN: BOSS, WORKER_TOKENS: tokens(4), WORKER_COUNT: '6', WORKER_IDS: '3-5' });
		expect(problem!.key).toBe('WORKER_TOKENS');
		expect(problem!.message).toBe(
			'has 4 tokens, but there are 6 workers (WORKER_COUNT) and this process holds 3 (WORKER_IDS 3-5): give all 6, each process taking those at its ids, or only the 3 it holds, in the order of its ids',
		);
	});

	it('a bad WORKER_COUNT or WORKER_IDS is named by its key', () => {
		expect(problemsOf({ BOSS_TOKEN: BOSS, WORKER_TOKENS: tokens(3), WORKER_COUNT: '0' }).map((problem) => problem.key)).toEqual(['WORKER_COUNT']);
		expect(problemsOf({ BOSS_TOKEN: BOSS, WORKER_TOKENS: tokens(3), WORKER_IDS: '2,3' })).toEqual([
			{ key: 'WORKER_IDS', message: 'worker 3 is not among the 3 workers of WORKER_COUNT (ids 0 to 2)' },
		]);
	});

	it('WORKER_IDS=none holds no worker: a boss whose workers all run elsewhere', () => {
		const config = load({ BOSS_TOKEN: BOSS, WORKER_TOKENS: tokens(6), WORKER_IDS: 'none' });
		expect(config.heldWorkers).toEqual([]);
		expect(config.workerCount).toBe(6);
		expect(load({ BOSS_TOKEN: BOSS, WORKER_COUNT: '6', WORKER_IDS: 'none' }).heldWorkers).toEqual([]);
	});

	it('BOSS_TOKEN stays required when the process holds every worker by default', () => {
		expect(problemsOf({ WORKER_TOKENS: tokens(3) }).map((problem) => problem.key)).toEqual(['BOSS_TOKEN']);
	});

	it('a bad LISTER_TOKEN is named, never shown', () => {
		const [problem] = problemsOf({ WORKER_TOKENS: tokens(2), WORKER_COUNT: '2', JOB_COMPLETION_INDEX: '0', LISTER_TOKEN: `Bot ${BOSS}` });
		expect(problem!.key).toBe('LISTER_TOKEN');
		expect(problem!.message).not.toContain(BOSS);
	});

	it('a duplicate among only the held workers’ tokens names the workers by their ids', () => {
		const [problem] = problemsOf({ WORKER_TOKENS: `${TOKENS[1]},${TOKENS[2]},${TOKENS[1]}`, WORKER_COUNT: '9', WORKER_IDS: '6-8' });
		expect(problem!.message).toMatch(/^worker 6 and worker 8 \(tokens 1 and 3 in the list\) have the same token/);
	});

	it('FLEET_JOURNALS_DIR is read as given, and refused when it is the data folder itself', () => {
		const env = { BOSS_TOKEN: BOSS, WORKER_TOKENS: tokens(3), WORKER_IDS: 'none', MASSNICK_DATA_DIR: '/var/lib/massnick' };
		expect(load(env).fleetJournalsDir).toBeUndefined();
		expect(load({ ...env, FLEET_JOURNALS_DIR: '/var/lib/massnick-fleet' }).fleetJournalsDir).toBe('/var/lib/massnick-fleet');
		const [problem] = problemsOf({ ...env, FLEET_JOURNALS_DIR: '/var/lib/massnick' });
		expect(problem!.key).toBe('FLEET_JOURNALS_DIR');
		expect(problem!.message).toMatch(/^is MASSNICK_DATA_DIR \(\/var\/lib\/massnick\).*point it at their parent folder, or leave it unset$/);
		// The same folder written another way is the same folder.
		expect(problemsOf({ ...env, FLEET_JOURNALS_DIR: '/var/lib/./massnick/' }).map((each) => each.key)).toEqual(['FLEET_JOURNALS_DIR']);
	});
});
