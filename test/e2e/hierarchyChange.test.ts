import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFigures } from '../support/reportFigures.js';
import { memberPatches } from '../../bench/soak/invariants.js';
import { type Stack, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const WORKERS = 4;

/**
 * A moderator moves a busy role above the workers while /massnick runs. Its holders are out of
 * reach from then on: a job that planned with the roles as they were at its start would send each
 * of them and earn a 403 apiece. It must re-read the roles on Discord's event and leave them alone,
 * so only what was already on the wire meets the change.
 */
describe('a role moved above the workers while /massnick runs', () => {
	let stack: Stack;

	beforeAll(async () => {
		stack = await startStack({ members: 2000, workers: WORKERS, timeScale: 50 });
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('leaves its holders alone from Discord’s role event on, with no more 403s than requests on the wire; moved back, a rerun renames them', async () => {
		const { guildId, ownerId, channelId } = stack.sandbox;
		const state = await stack.control.state();
		const level = state.roles.find((role) => role.name === 'Level 10')!;
		const massnick = state.roles.find((role) => role.name === 'Massnick')!;
		const holders = (await stack.control.members(guildId)).filter((member) => member.roles.includes(level.id) && !member.bot).length;
		expect(holders).toBeGreaterThan(100);

		const { lastSeq: start } = await stack.control.requests();
		const previous = stack.massnick.jobs.last;
		await stack.control.invoke(guildId, ownerId, 'massnick', { name: 'Ladder {id}' }, channelId);
		await waitUntil(() => stack.massnick.jobs.current !== undefined && stack.massnick.jobs.current !== previous, { what: 'the job to start' });
		const job = stack.massnick.jobs.current!;
		await waitUntil(async () => memberPatches((await stack.control.requests(start)).requests).filter((request) => request.status === 200).length >= 200, {
			what: '200 renames',
		});
		const { lastSeq: moved } = await stack.control.requests();
		await stack.control.editRole(guildId, level.id, { position: massnick.position + 1 });
		await waitUntil(() => job.result !== undefined, { what: 'the job to end', timeoutMs: 120_000 });

		const forbidden = memberPatches((await stack.control.requests(moved)).requests).filter((request) => request.status === 403).length;
		const inFlight = WORKERS * stack.config.workers.maxInFlight;
		expect(job.result!.state).toBe('finished');
		expect(forbidden).toBeLessThanOrEqual(inFlight);
		const cant = job.progress.snapshot().cant;
		expect(cant).toBeGreaterThan(50);
		reportFigures('role moved above the workers mid-/massnick', { holders, leftAlone: cant, forbiddenAfterMove: forbidden, inFlightBound: inFlight });

		await stack.control.editRole(guildId, level.id, { position: level.position });
		const rerun = await stack.runJob('massnick', { name: 'Ladder {id}' });
		expect(rerun.result!.state).toBe('finished');
		const members = await stack.control.members(guildId);
		const missed = members.filter((member) => member.roles.includes(level.id) && !member.bot && member.id !== ownerId && member.nick !== `Ladder ${member.id}`);
		// Holders who also hold a role above the workers (moderators) stay out of reach, as before the move.
		for (const member of missed) expect(member.roles.some((role) => (state.roles.find((r) => r.id === role)?.position ?? 0) >= massnick.position)).toBe(true);
	});
});
