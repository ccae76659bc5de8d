import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../src/jobs/Job.js';
import { reportFigures } from '../support/reportFigures.js';
import { type Stack, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const ROLE_ROUTE = '/guilds/:id/members/:id/roles/:id';
const WORKERS = 4;

/**
 * A moderator changes the role of a running /massrole job: deletes it, or moves it above the
 * workers. Discord would refuse every change after that (404 Unknown Role, 403 Missing
 * Permissions) for every member alike, so the job must stop and say why, not earn a flood of them:
 * at most what was on the wire when Discord's role event came.
 */
describe('/massrole when its role is deleted or moved above the workers mid-run', () => {
	let stack: Stack;
	let inFlight: number;

	beforeAll(async () => {
		stack = await startStack({ members: 1500, workers: WORKERS, timeScale: 50 });
		inFlight = WORKERS * stack.config.workers.maxInFlight;
	});

	afterAll(async () => {
		await stack?.close();
	});

	/** Starts /massrole add with a new role below the workers, and waits until `given` members have it. */
	async function startGiving(name: string, given: number): Promise<{ job: Job; roleId: string }> {
		const role = await stack.control.createRole(stack.sandbox.guildId, { name, position: 1 });
		const { lastSeq } = await stack.control.requests();
		const previous = stack.massnick.jobs.last;
		await stack.control.invoke(stack.sandbox.guildId, stack.sandbox.ownerId, 'massrole add', { role: role.id }, stack.sandbox.channelId);
		await waitUntil(() => stack.massnick.jobs.current !== undefined && stack.massnick.jobs.current !== previous, { what: 'the job to start' });
		const job = stack.massnick.jobs.current!;
		await waitUntil(
			async () => (await stack.control.requests(lastSeq)).requests.filter((request) => request.route === ROLE_ROUTE && request.status === 204).length >= given,
			{ what: `${given} members given ${name}` },
		);
		return { job, roleId: role.id };
	}

	const refusedSince = async (seq: number, status: number): Promise<number> =>
		(await stack.control.requests(seq)).requests.filter((request) => request.route === ROLE_ROUTE && request.status === status).length;

	it('deleted: the job stops with ROLE_DELETED and why, after at most what was in flight', async () => {
		const { job, roleId } = await startGiving('Deleted soon', 60);
		const { lastSeq } = await stack.control.requests();
		await stack.control.deleteRole(stack.sandbox.guildId, roleId);
		await waitUntil(() => job.result !== undefined, { what: 'the job to end' });
		expect(job.result!.state).toBe('failed');
		expect(job.result!.error).toMatchObject({ code: 'ROLE_DELETED' });
		expect(job.result!.error!.message).toContain('was deleted while the job ran, so it stopped');
		const notFound = await refusedSince(lastSeq, 404);
		// Discord's role event stops it before its requests meet the change: at most one a worker, on the wire already.
		expect(notFound).toBeLessThanOrEqual(WORKERS);
		// It stopped well before the end: the rest of the guild was never asked for.
		expect(job.progress.snapshot().changed).toBeLessThan(1000);
		reportFigures('role deleted mid-/massrole', { given: job.progress.snapshot().changed, notFoundAfterDelete: notFound, inFlightBound: inFlight });
	});

	it('moved above the workers: the job stops with ROLE_NOT_ASSIGNABLE and the fix, after at most what was in flight', async () => {
		const { job, roleId } = await startGiving('Moved soon', 60);
		const moderator = (await stack.control.state()).roles.find((role) => role.name === 'Moderator')!;
		const { lastSeq } = await stack.control.requests();
		await stack.control.editRole(stack.sandbox.guildId, roleId, { position: moderator.position });
		await waitUntil(() => job.result !== undefined, { what: 'the job to end' });
		expect(job.result!.state).toBe('failed');
		expect(job.result!.error).toMatchObject({ code: 'ROLE_NOT_ASSIGNABLE' });
		expect(job.result!.error!.message).toContain("is now at or above the workers' highest role");
		const forbidden = await refusedSince(lastSeq, 403);
		expect(forbidden).toBeLessThanOrEqual(WORKERS);
		reportFigures('role moved above the workers mid-/massrole', {
			given: job.progress.snapshot().changed,
			forbiddenAfterMove: forbidden,
			inFlightBound: inFlight,
		});

		// Moved back below them, the same command finishes the job.
		await stack.control.editRole(stack.sandbox.guildId, roleId, { position: 1 });
		const rerun = await stack.runJob('massrole add', { role: roleId });
		expect(rerun.result!.state).toBe('finished');
	});
});
