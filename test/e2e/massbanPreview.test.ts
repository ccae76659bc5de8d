import type { ControlInteraction } from '@massnick/discord-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandAnswer } from '../support/commandAnswer.js';
import { raidStack } from '../support/raidStack.js';
import type { ShownPreview, Stack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const AIM = { joined_after: '15m', name_matches: '/free nitro/' };
const MODAL = 9;
const UPDATE = 7;
/** What the preview and the modal of a ban of more than 100 members say of its count. */
const WHY = 'A ban of more than 100 members is confirmed by its count (/restore unbans them).';
const NO_UNDO = /cannot be undone|will not bring anyone back/;

const previewText = (shown: { message: { embeds: unknown[] } }): string => (shown.message.embeds[0] as { description?: string }).description ?? '';

describe('/massban preview', () => {
	let stack: Stack;
	let raidIds: string[];
	let moderator: string;
	const isBanned = (id: string): boolean => stack.sandbox.state.bans.has(BigInt(id));
	/** Presses Start as the moderator and returns the press, once the boss has answered it. */
	async function pressStart(shown: ShownPreview, answer: 'modal' | 'update'): Promise<ControlInteraction> {
		const id = await stack.control.pressButton(stack.sandbox.guildId, moderator, stack.sandbox.channelId, shown.message.id, shown.start);
		if (answer === 'modal') await stack.control.waitForModal(id);
		else await stack.control.waitForResponses(id, 1);
		return stack.control.interaction(id);
	}

	beforeAll(async () => {
		let roleId: (name: string) => string;
		({ stack, roleId } = await raidStack({
			members: 300,
			workers: 4,
			settings: (config) => ({ ...config, preview: { timeoutSeconds: 60, skipBelowMembers: 0 } }),
		}));
		({ raidIds } = await stack.control.stageRaid(stack.sandbox.guildId, { count: 30 }));
		moderator = (await stack.control.members(stack.sandbox.guildId)).find((member) => member.roles.includes(roleId('Moderator')))!.id;
		await stack.control.editRole(stack.sandbox.guildId, roleId('Moderator'), {
			permissions: ['ManageNicknames', 'KickMembers', 'BanMembers', 'ManageMessages', 'ModerateMembers', 'ViewAuditLog', 'ManageGuild'],
		});
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('previews a ban of everyone in reach with real members’ lines and the bulk ban’s pace, and Cancel bans nobody', async () => {
		const shown = await stack.preview('massban', {}, moderator);
		const text = previewText(shown);
		expect(text).toContain('**Banning members** for every member.');
		// Everyone in reach is more than 100: the count is asked, and the ban is not called irreversible.
		expect(text).toMatch(
			/\(\/restore unbans them\)\. Nothing changes until you press \*\*Start\*\* and type the number of members it will change, \*\*\d{3}\*\*/,
		);
		expect(text).not.toMatch(NO_UNDO);
		expect(text).toMatch(/• @\S+ .*is banned/);
		// 4 workers at one bulk ban of 200 a second each, not one ban a second.
		expect(text).toContain('4 workers at about 800 changes a second together');
		// Counted exactly, as a count to be typed is: the owner among those it can't ban.
		expect(text).toMatch(/can't [1-9]\d* \(the owner/);
		expect(text).toContain('Counted exactly');
		const owner = (await stack.control.members(stack.sandbox.guildId)).find((member) => member.id === stack.sandbox.ownerId)!;
		expect(text).not.toContain(`@${owner.username}`);
		await stack.press(shown.message.id, shown.cancel, moderator);
		await waitUntil(async () => /Cancelled/.test(previewText({ message: await stack.control.message(stack.sandbox.channelId, shown.message.id) })), {
			what: 'the preview to say it was cancelled',
		});
		expect(stack.sandbox.state.bans.size).toBe(0);
	});

	it('Start on an aimed preview of 30 bans the raid accounts and nobody else, without asking for the count', async () => {
		const previous = stack.massnick.jobs.last;
		const shown = await stack.preview('massban', AIM, moderator);
		const text = previewText(shown);
		expect(text).toContain(`Will change **${raidIds.length}**`);
		expect(text).toContain('Nothing changes until you press **Start**.');
		expect(text).not.toContain('type the number');
		expect(text).not.toContain(WHY);
		const press = await pressStart(shown, 'update');
		expect(press.responses.map((response) => response.type)).toEqual([UPDATE]);
		expect(press.modal).toBeUndefined();
		await waitUntil(() => stack.massnick.jobs.last !== previous && stack.massnick.jobs.current === undefined, { what: '/massban to end' });
		expect(stack.massnick.jobs.last!.result?.state).toBe('finished');
		expect([...raidIds].every(isBanned)).toBe(true);
		expect(stack.sandbox.state.bans.size).toBe(raidIds.length);
	});

	it('a ban of more than 100 asks for the count in a modal: another number bans nobody and says so, the right one bans exactly them', async () => {
		const WAVE = 150;
		const { raidIds: wave } = await stack.control.stageRaid(stack.sandbox.guildId, { count: WAVE, names: 'free nitro wave {n}', seed: 2 });
		const bannedBefore = stack.sandbox.state.bans.size;
		const shown = await stack.preview('massban', AIM, moderator);
		const text = previewText(shown);
		expect(text).toContain(`Will change **${WAVE}**`);
		expect(text).toContain(`${WHY} Nothing changes until you press **Start** and type the number of members it will change, **${WAVE}**, in the box it opens.`);
		expect(text).not.toMatch(NO_UNDO);

		const press = await pressStart(shown, 'modal');
		expect(press.responses.map((response) => response.type)).toEqual([MODAL]);
		expect(press.modal!.title).toBe('Confirm: Banning members');
		const previous = stack.massnick.jobs.last;
		const wrong = await stack.control.submitModal(press.id, { count: String(WAVE - 1) });
		const refusal = await commandAnswer(stack.control, wrong);
		expect(refusal.ephemeral).toBe(true);
		expect(refusal.text).toContain(`You typed “${WAVE - 1}”, but the preview shows **${WAVE}** members to be banned: nothing ran.`);
		expect(refusal.text).toContain(`press **Start** again and type ${WAVE} to go on, or **Cancel**`);
		expect(stack.massnick.jobs.last).toBe(previous);
		expect(wave.some(isBanned)).toBe(false);
		expect(stack.sandbox.state.bans.size).toBe(bannedBefore);

		const again = await pressStart(shown, 'modal');
		const right = await stack.control.submitModal(again.id, { count: String(WAVE) });
		expect((await stack.control.waitForResponses(right, 1)).responses[0]!.type).toBe(UPDATE);
		await waitUntil(() => stack.massnick.jobs.last !== previous && stack.massnick.jobs.current === undefined, { what: 'the ban of the wave to end' });
		expect(stack.massnick.jobs.last!.result?.state).toBe('finished');
		expect(wave.every(isBanned)).toBe(true);
		expect(stack.sandbox.state.bans.size).toBe(bannedBefore + WAVE);
	});
});

describe('/massban in a server of fewer than 100 members', () => {
	let stack: Stack;

	beforeAll(async () => {
		({ stack } = await raidStack({ members: 40, workers: 2 }));
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('starts at once as before: no ban there can reach 100 members, so nothing is previewed or typed', async () => {
		const { raidIds } = await stack.control.stageRaid(stack.sandbox.guildId, { count: 20 });
		expect(stack.massnick.boss.guild.memberCount).toBeLessThanOrEqual(100);
		const id = await stack.control.invoke(stack.sandbox.guildId, stack.sandbox.ownerId, 'massban', AIM, stack.sandbox.channelId);
		const answer = await commandAnswer(stack.control, id);
		expect(answer.ephemeral).toBe(false);
		expect(answer.text).toMatch(/^Started: \*\*Banning members\*\*/);
		expect(answer.buttons.some((customId) => customId.endsWith(':start'))).toBe(false);
		await waitUntil(() => stack.massnick.jobs.last?.result !== undefined && stack.massnick.jobs.current === undefined, { what: '/massban to end' });
		expect(stack.massnick.jobs.last!.result?.state).toBe('finished');
		expect(raidIds.every((raidId) => stack.sandbox.state.bans.has(BigInt(raidId)))).toBe(true);
		expect(stack.sandbox.state.bans.size).toBe(raidIds.length);
	});
});
