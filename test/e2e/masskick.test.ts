import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlInteraction, ControlMessage, SandboxRequest } from '@massnick/discord-sandbox';
import { workerIndexOf } from '../../src/workers/partition.js';
import { type ShownPreview, type Stack, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const KICK_ROUTE = '/guilds/:id/members/:id';
const ROLE_ROUTE = '/guilds/:id/members/:id/roles/:id';
const WORKERS = 4;
const RAIDERS = 40;
/** Raid accounts given a role above the moderator who kicks: out of their reach. */
const ABOVE_THEM = 2;
const MODAL = 9;
const UPDATE = 7;
const REPLY = 4;
const EPHEMERAL = 64;

type Embed = { description?: string };
const descriptionOf = (message: ControlMessage): string => ((message.embeds[0] ?? {}) as Embed).description ?? '';
/** The text of an answer: a reply's `data.content`, an edit's `content`. */
const contentOf = (interaction: ControlInteraction, at = 0): string => {
	const body = interaction.responses[at]?.body as { content?: string; data?: { content?: string } } | undefined;
	return body?.data?.content ?? body?.content ?? '';
};
const kicks = (requests: readonly SandboxRequest[]): SandboxRequest[] =>
	requests.filter((request) => request.method === 'DELETE' && request.route === KICK_ROUTE);

describe('/masskick end to end on the sandbox, a raid among real joiners', () => {
	let stack: Stack;
	let raidIds: string[];
	let realIds: string[];
	/** A moderator with Kick Members, ranked below the Staff role two raid accounts were given. */
	let moderatorId: string;
	/** A member with no permission at all. */
	let plainId: string;
	let eventId: string;
	let workerOf: Map<string, number>;
	const aim = { joined_after: '30m', name_matches: 'free nitro' };

	const memberIds = async (): Promise<Set<string>> => new Set((await stack.control.members(stack.sandbox.guildId)).map((member) => member.id));
	const requestsSince = async (seq: number): Promise<SandboxRequest[]> => (await stack.control.requests(seq)).requests;
	const preview = (): Promise<ShownPreview> => stack.preview('masskick', { ...aim, reason: 'raid of today' }, moderatorId);
	/** Presses Start as the moderator and returns the press, answered with the modal. */
	async function pressStart(shown: ShownPreview): Promise<ControlInteraction> {
		const id = await stack.control.pressButton(stack.sandbox.guildId, moderatorId, stack.sandbox.channelId, shown.message.id, shown.start);
		await stack.control.waitForModal(id);
		return stack.control.interaction(id);
	}

	beforeAll(async () => {
		stack = await startStack({ members: 400, workers: WORKERS });
		const { guildId } = stack.sandbox;
		const roles = (await stack.control.state()).roles;
		const massnick = roles.find((role) => role.name === 'Massnick')!;
		await stack.control.editRole(guildId, massnick.id, { permissions: ['ManageNicknames', 'ChangeNickname', 'ViewAuditLog', 'ManageRoles', 'KickMembers'] });
		await waitUntil(() => stack.massnick.fleet.workers.every((worker) => worker.hasPermission(PermissionFlagsBits.KickMembers)), {
			what: 'every worker to see Kick Members',
		});
		const staff = roles.find((role) => role.name === 'Staff')!;
		// Below Staff: the moderator's reach stops under it.
		const kickers = await stack.control.createRole(guildId, { name: 'Raid patrol', permissions: ['KickMembers'], position: staff.position });
		const everyone = (await stack.control.members(guildId)).filter((member) => !member.bot && member.roles.length === 0 && member.id !== stack.sandbox.ownerId);
		moderatorId = everyone[0]!.id;
		plainId = everyone[1]!.id;
		await stack.control.addMemberRole(guildId, moderatorId, kickers.id);
		// At the bottom, below the moderator: the job before the kick hands it out.
		eventId = (await stack.control.createRole(guildId, { name: 'Suspects', position: 1 })).id;
		({ raidIds, realIds } = await stack.control.stageRaid(guildId, { count: RAIDERS, realJoiners: 15, windowMs: 5 * 60_000 }));
		for (const id of raidIds.slice(0, ABOVE_THEM)) await stack.control.addMemberRole(guildId, id, staff.id);
		workerOf = new Map(stack.massnick.fleet.workers.map((worker) => [worker.client.user!.id, worker.index]));
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('is refused for a member without Kick Members, naming it, and sends nothing', async () => {
		const { lastSeq } = await stack.control.requests();
		const id = await stack.control.invoke(stack.sandbox.guildId, plainId, 'masskick', aim, stack.sandbox.channelId);
		const answer = await stack.control.waitForResponses(id, 1);
		expect(contentOf(answer)).toContain('Kick Members');
		expect(kicks(await requestsSince(lastSeq))).toEqual([]);
		expect(stack.massnick.jobs.last).toBeUndefined();
	});

	it('a dry run counts exactly the raid accounts within reach and kicks nobody', async () => {
		const { lastSeq } = await stack.control.requests();
		const job = await stack.runJob('masskick', { ...aim, dry_run: true }, moderatorId);
		const snapshot = job.progress.snapshot();
		expect(snapshot.changed).toBe(RAIDERS - ABOVE_THEM);
		expect(snapshot.aboveRequester).toBe(ABOVE_THEM);
		expect(kicks(await requestsSince(lastSeq))).toEqual([]);
	});

	it('the preview says a kick cannot be undone, counts the members exactly, and its Start opens a modal that asks for that number', async () => {
		// A job before the kick, so that /restore later has one it can undo: the raid accounts get @Suspects.
		await stack.runJob('massrole add', { role: eventId, ...aim });
		const { lastSeq } = await stack.control.requests();
		const shown = await preview();
		expect(shown.message.ephemeral).toBe(true);
		const description = descriptionOf(shown.message);
		expect(description).toContain('A kick cannot be undone: kicked members must be invited back.');
		expect(description).toContain(`Will change **${RAIDERS - ABOVE_THEM}**`);
		expect(description).toMatch(new RegExp(`out of your reach ${ABOVE_THEM} \\(ranked at or above you`));
		expect(description).toContain(`type the number of members it will change, **${RAIDERS - ABOVE_THEM}**, in the box it opens`);
		expect(description).toContain('Audit-log reason: “massnick kick by');
		expect(description).toContain(': raid of today”');

		const press = await pressStart(shown);
		expect(press.responses.map((response) => response.type)).toEqual([MODAL]);
		expect(press.modal).toMatchObject({ customId: shown.start.replace(/^preview:(\d+):start$/, 'confirm:$1') });
		expect(press.modal!.parts.find((part) => part.kind === 'label')?.input).toMatchObject({ customId: 'count', required: true });
		expect(kicks(await requestsSince(lastSeq))).toEqual([]);

		// A wrong number: refused privately, saying what was typed and what was expected; nothing runs, the preview stays open.
		const previous = stack.massnick.jobs.last;
		const wrong = await stack.control.submitModal(press.id, { count: String(RAIDERS) });
		const refusal = await stack.control.waitForResponses(wrong, 1);
		expect(refusal.responses[0]!.type).toBe(REPLY);
		expect((refusal.responses[0]!.body as { data: { flags: number } }).data.flags & EPHEMERAL).toBe(EPHEMERAL);
		expect(contentOf(refusal)).toContain(`You typed “${RAIDERS}”, but the preview shows **${RAIDERS - ABOVE_THEM}** members to be kicked: nothing ran.`);
		expect(stack.massnick.jobs.last).toBe(previous);
		expect(kicks(await requestsSince(lastSeq))).toEqual([]);
		const still = await stack.control.message(stack.sandbox.channelId, shown.message.id);
		expect(still.components.flatMap((row) => row.components ?? []).map((button) => button.custom_id)).toEqual([shown.start, shown.cancel]);

		// Only its member sees the preview, so only they can press Start and submit.
		await expect(stack.control.pressButton(stack.sandbox.guildId, plainId, stack.sandbox.channelId, shown.message.id, shown.start)).rejects.toThrow(
			/ephemeral/,
		);

		// The right number: the job runs.
		const again = await pressStart(shown);
		const right = await stack.control.submitModal(again.id, { count: `${RAIDERS - ABOVE_THEM}` });
		expect((await stack.control.waitForResponses(right, 1)).responses[0]!.type).toBe(UPDATE);
		await waitUntil(() => stack.massnick.jobs.last !== previous && stack.massnick.jobs.current === undefined, { what: 'the kick to end', timeoutMs: 60_000 });
		const job = stack.massnick.jobs.last!;
		expect(job.result?.state).toBe('finished');
		expect(job.action.type).toBe('kick');

		const requests = await requestsSince(lastSeq);
		const sent = kicks(requests);
		const reachable = raidIds.slice(ABOVE_THEM);
		expect(new Set(sent.map((request) => request.targetId))).toEqual(new Set(reachable));
		expect(sent).toHaveLength(reachable.length);
		for (const request of sent) {
			expect(request.status).toBe(204);
			expect(workerOf.get(request.botUserId!)).toBe(workerIndexOf(request.targetId!, WORKERS));
		}
		expect(requests.filter((request) => request.status === 403 || request.status === 429)).toEqual([]);
		const left = await memberIds();
		for (const id of reachable) expect(left.has(id), id).toBe(false);
		for (const id of [...realIds, ...raidIds.slice(0, ABOVE_THEM), moderatorId, plainId, stack.sandbox.ownerId]) expect(left.has(id), id).toBe(true);
		const audit = (await stack.control.auditLog(stack.sandbox.guildId, 100)).audit_log_entries.filter((entry) => entry.action_type === 20);
		expect(audit).toHaveLength(reachable.length);
		expect(audit[0]!.reason).toMatch(/^massnick kick by .*: raid of today$/);
	});

	it('/restore afterwards says the kick cannot be undone, with its journal, and names the job before it; skip_irreversible undoes that one', async () => {
		const { lastSeq } = await stack.control.requests();
		const id = await stack.control.invoke(stack.sandbox.guildId, stack.sandbox.ownerId, 'restore', {}, stack.sandbox.channelId);
		const answer = await stack.control.waitForResponses(id, 2);
		const text = contentOf(answer, 1);
		expect(text).toContain('The newest job, Kicking members');
		expect(text).toContain('cannot be undone. A kick cannot be undone: kicked members must be invited back.');
		expect(text).toContain(`Its journal keeps the ${RAIDERS - ABOVE_THEM} members it kicked`);
		expect(text).toContain(stack.dataDir);
		expect(text).toContain('Nothing was changed.');
		expect(text).toContain('The job before it, Adding @Suspects');
		expect(text).toContain('run /restore with `skip_irreversible:true`');
		expect(kicks(await requestsSince(lastSeq))).toEqual([]);

		const restore = await stack.runJob('restore', { skip_irreversible: true });
		expect([restore.mode, restore.action.type]).toEqual(['restore', 'role-add']);
		expect(restore.result?.state).toBe('finished');
		// The raid accounts still here (out of the kick's reach) lose @Suspects; the kicked ones are gone.
		const roleDeletes = (await requestsSince(lastSeq)).filter((request) => request.method === 'DELETE' && request.route === ROLE_ROUTE);
		expect(new Set(roleDeletes.map((request) => request.targetId))).toEqual(new Set(raidIds.slice(0, ABOVE_THEM)));
	});
});
