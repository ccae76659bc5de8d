import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

/**
 * A template, a role's name and a member's name can each carry a mention, and the bots repeat them
 * in replies, previews and status messages. The sandbox works out whom each message pinged, as
 * Discord does; here nobody may have been pinged, though the mentions are there to ping with.
 */
describe('nothing the bots post pings anyone', () => {
	let stack: Stack;
	let loudRole: string;

	const jobEnds = async (start: () => Promise<unknown>): Promise<void> => {
		const previous = stack.massnick.jobs.last;
		await start();
		await waitUntil(() => stack.massnick.jobs.last !== previous && stack.massnick.jobs.current === undefined, { what: 'the job to end', timeoutMs: 60_000 });
	};

	beforeAll(async () => {
		stack = await startStack({ members: 200, workers: 2, settings: (config) => ({ ...config, preview: { timeoutSeconds: 60, skipBelowMembers: 0 } }) });
		const { guildId, ownerId } = stack.sandbox;
		// A mentionable role pings for anyone; Mention Everyone lets the boss ping @everyone and @here.
		loudRole = (await stack.control.createRole(guildId, { name: `@everyone <@${ownerId}>`, mentionable: true, position: 1 })).id;
		const shout = await stack.control.createRole(guildId, { name: 'Shout', permissions: ['MentionEveryone'], position: 2 });
		await stack.control.addMemberRole(guildId, stack.massnick.boss.client.user!.id, shout.id);
		// A member's own nickname, which the previews' samples and the counts may show.
		const someone = (await stack.control.members(guildId)).find((member) => !member.bot && member.id !== ownerId)!;
		await stack.control.setOwnNick(guildId, someone.id, `<@${ownerId}> @here`);
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('the issue’s template is refused for its length, and the refusal pings nobody', async () => {
		const id = await stack.control.invoke(
			stack.sandbox.guildId,
			stack.sandbox.ownerId,
			'massnick',
			{ name: `<@&${loudRole}> @everyone {username}` },
			stack.sandbox.channelId,
		);
		await stack.control.waitForResponses(id, 1);
		await waitUntil(async () => (await stack.control.messages(stack.sandbox.channelId)).some((message) => /Discord allows at most 32/.test(message.content)), {
			what: 'the refusal',
		});
		expect(await stack.control.mentioningMessages(stack.sandbox.channelId)).toEqual([]);
	});

	it('a /massnick whose template mentions a member and @here, through its preview, live status, /status and /stats, pings nobody', async () => {
		const template = `<@${stack.sandbox.ownerId}> @here {username}`;
		await jobEnds(async () => {
			const preview = await stack.preview('massnick', { name: template });
			await stack.press(preview.message.id, preview.start);
		});
		await stack.control.waitForResponses(await stack.control.invoke(stack.sandbox.guildId, stack.sandbox.ownerId, 'status', {}, stack.sandbox.channelId), 1);
		await stack.control.waitForResponses(
			await stack.control.invoke(stack.sandbox.guildId, stack.sandbox.ownerId, 'stats', { name: template }, stack.sandbox.channelId),
			2,
		);

		const messages = await stack.control.messages(stack.sandbox.channelId);
		// The mentions are in what the bots posted, as plain text: they would ping without the fix.
		expect(messages.some((message) => message.content.includes(template))).toBe(true);
		expect(await stack.control.mentioningMessages(stack.sandbox.channelId)).toEqual([]);
	});

	it('a /massrole of a role named with mentions, its dry run, and its /restore, ping nobody', async () => {
		// A dry run starts at once: its answer's text names the role.
		await stack.runJob('massrole add', { role: loudRole, dry_run: true });
		await jobEnds(async () => {
			const preview = await stack.preview('massrole add', { role: loudRole });
			await stack.press(preview.message.id, preview.start);
		});
		await jobEnds(async () => {
			const preview = await stack.preview('restore', {});
			await stack.press(preview.message.id, preview.start);
		});
		const messages = await stack.control.messages(stack.sandbox.channelId);
		expect(messages.some((message) => message.content.includes(`@@everyone <@${stack.sandbox.ownerId}>`))).toBe(true);
		expect(await stack.control.mentioningMessages(stack.sandbox.channelId)).toEqual([]);
	});
});
