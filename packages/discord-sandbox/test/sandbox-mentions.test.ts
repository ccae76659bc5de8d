import {
	AllowedMentionsTypes,
	ButtonStyle,
	ComponentType,
	MessageFlags,
	RESTJSONErrorCodes,
	Routes,
	type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord-api-types/v10';
import { Client, Events, GatewayIntentBits, type ChatInputCommandInteraction, type Interaction, type Message, type TextChannel } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl, type ControlMessage } from '../src/client/SandboxControl.js';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { apiFailure } from './support/apiFailure.js';
import { loginAll } from './support/loginAll.js';
import { ManualClock } from './support/ManualClock.js';

/**
 * Mentions as Discord computes them, through the real discord.js: what `content` mentions, what
 * `allowed_mentions` lets through (by default every kind in a channel message, only users in an
 * interaction's response), and what the author may ping (Mention Everyone for `@everyone`,
 * `@here` and roles that are not mentionable).
 * https://discord.com/developers/docs/resources/message#allowed-mentions-object
 */
let sandbox: Sandbox;
let control: SandboxControl;
/** The boss's bot with discord.js's defaults: no client-wide allowed mentions. */
let loud: Client;
/** A worker's bot set up as massnick sets up every client: `allowedMentions: { parse: [] }`. */
let quiet: Client;
let loudChannel: TextChannel;
let quietChannel: TextChannel;
/** A member who is neither the owner nor a bot. */
let otherId: string;
let staff: string;
let event: string;
/** Time stands still: no interaction deadline passes on a slow machine. */
const clock = new ManualClock();

const commands = (name: string): RESTPostAPIChatInputApplicationCommandsJSONBody[] => [{ name, description: 'Answer with mentions' }];

beforeAll(async () => {
	const generous = { limit: 1000 };
	sandbox = await startSandbox({
		members: 50,
		workers: 1,
		seed: 31,
		now: clock.now,
		rateLimits: {
			global: generous,
			routes: { messageCreate: generous, messageEdit: generous, interactionCallback: generous, webhook: generous, commands: generous, default: generous },
		},
	});
	control = new SandboxControl(sandbox.controlUrl);
	otherId = (await control.members(sandbox.guildId)).find((member) => !member.bot && member.id !== sandbox.ownerId)!.id;
	({ Staff: staff, Event: event } = sandbox.state.guild.roleIds);
	loud = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: sandbox.apiUrl } });
	quiet = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: sandbox.apiUrl }, allowedMentions: { parse: [], repliedUser: false } });
	await loginAll([
		[loud, sandbox.bossToken],
		[quiet, sandbox.workerTokens[0]!],
	]);
	await loud.rest.put(Routes.applicationGuildCommands(sandbox.bossId, sandbox.guildId), { body: commands('loud') });
	await quiet.rest.put(Routes.applicationGuildCommands(sandbox.workerIds[0]!, sandbox.guildId), { body: commands('quiet') });
	loudChannel = (await loud.channels.fetch(sandbox.channelId)) as TextChannel;
	quietChannel = (await quiet.channels.fetch(sandbox.channelId)) as TextChannel;
});
afterAll(async () => {
	await Promise.all([loud?.destroy(), quiet?.destroy()]);
	await sandbox?.close();
});

/** Everything a message can mention: `@everyone`, `@here`, a mentionable and a plain role, a member and an unknown user. */
const everything = (): string => `@everyone @here <@&${staff}> <@&${event}> <@${otherId}> <@!1>`;

/** Whom a message mentions, as the control API stored it. */
async function stored(messageId: string): Promise<Pick<ControlMessage, 'mention_everyone' | 'mention_roles' | 'everMentioned'> & { users: string[] }> {
	const message = await control.message(sandbox.channelId, messageId);
	return {
		users: message.mentions.map((user) => user.id),
		mention_roles: message.mention_roles,
		mention_everyone: message.mention_everyone,
		everMentioned: message.everMentioned,
	};
}

/** What discord.js made of a message's mentions. */
function seen(message: Message): { users: string[]; roles: string[]; everyone: boolean } {
	return { users: [...message.mentions.users.keys()], roles: [...message.mentions.roles.keys()], everyone: message.mentions.everyone };
}

/** Runs a test with Mention Everyone allowed to `botId` in the channel (a member overwrite), then takes it back. */
async function withMentionEveryone(botId: string, run: () => Promise<void>): Promise<void> {
	await control.setChannelPermission(sandbox.channelId, botId, { type: 1, allow: ['MentionEveryone'] });
	try {
		await run();
	} finally {
		await control.deleteChannelPermission(sandbox.channelId, botId);
	}
}

/** Invokes `/command` as the owner and resolves once `client` has handled it with `handle`. */
async function onCommand(client: Client, command: string, handle: (interaction: ChatInputCommandInteraction) => Promise<void>): Promise<string> {
	const handled = new Promise<void>((resolve, reject) => {
		const listener = (interaction: Interaction): void => {
			if (!interaction.isChatInputCommand() || interaction.commandName !== command) return;
			client.off(Events.InteractionCreate, listener);
			handle(interaction).then(resolve, reject);
		};
		client.on(Events.InteractionCreate, listener);
	});
	const id = await control.invoke(sandbox.guildId, sandbox.ownerId, command);
	await handled;
	return id;
}

/** Ids of the messages an interaction created or edited, in order. */
async function responseMessages(interactionId: string): Promise<string[]> {
	return [...new Set((await control.interaction(interactionId)).responses.flatMap((response) => (response.messageId ? [response.messageId] : [])))];
}

describe('a bot’s channel messages: every kind is parsed unless allowed_mentions says otherwise', () => {
	it('a member mention counts as a user object and a mentionable role counts; a plain role and @everyone do not without Mention Everyone', async () => {
		const message = await loudChannel.send(everything());
		expect(seen(message)).toEqual({ users: [otherId], roles: [staff], everyone: false });
		const record = await stored(message.id);
		expect(record).toMatchObject({ users: [otherId], mention_roles: [staff], mention_everyone: false });
		expect((await control.message(sandbox.channelId, message.id)).mentions[0]).toMatchObject({ id: otherId, username: expect.any(String), discriminator: '0' });
	});

	it('with Mention Everyone in the channel, @everyone pings and a role that is not mentionable counts too', async () => {
		await withMentionEveryone(sandbox.bossId, async () => {
			const message = await loudChannel.send(everything());
			expect(seen(message)).toEqual({ users: [otherId], roles: [staff, event], everyone: true });
			expect((await loudChannel.send('@here, look')).mentions.everyone).toBe(true);
		});
	});

	it('embeds and code never ping, whatever the permissions', async () => {
		await withMentionEveryone(sandbox.bossId, async () => {
			const message = await loudChannel.send({
				content: `\`@everyone\` \`\`<@${otherId}>\`\` \`\`\`\n<@&${staff}>\n\`\`\``,
				embeds: [{ description: everything(), fields: [{ name: 'who', value: `<@${otherId}>` }] }],
			});
			expect(seen(message)).toEqual({ users: [], roles: [], everyone: false });
		});
	});

	it('allowed_mentions lists let only their ids through, and parse: [] lets nothing through', async () => {
		const listed = await loudChannel.send({ content: `${everything()} <@${sandbox.ownerId}>`, allowedMentions: { users: [sandbox.ownerId], roles: [staff] } });
		expect(seen(listed)).toEqual({ users: [sandbox.ownerId], roles: [staff], everyone: false });
		const none = await loudChannel.send({ content: everything(), allowedMentions: { parse: [] } });
		expect(seen(none)).toEqual({ users: [], roles: [], everyone: false });
	});

	it('refuses parse with a list of the same kind, lists over 100 and unknown kinds: 400/50035 on allowed_mentions', async () => {
		const exclusive = await apiFailure(loudChannel.send({ content: 'hi', allowedMentions: { parse: [AllowedMentionsTypes.User], users: [otherId] } }));
		expect([exclusive.status, exclusive.code]).toEqual([400, RESTJSONErrorCodes.InvalidFormBodyOrContentType]);
		expect(exclusive.message).toContain(
			'allowed_mentions[MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE]: parse:["users"] and users: [ids...] are mutually exclusive.',
		);
		// An empty list is no conflict, as Discord's docs say.
		expect((await loudChannel.send({ content: 'fine', allowedMentions: { parse: [AllowedMentionsTypes.User], users: [] } })).content).toBe('fine');
		const tooMany = await apiFailure(loudChannel.send({ content: 'hi', allowedMentions: { roles: Array.from({ length: 101 }, (_, i) => String(1000 + i)) } }));
		expect(tooMany.message).toContain('allowed_mentions.roles[BASE_TYPE_MAX_LENGTH]');
		const unknown = await apiFailure(
			loud.rest.post(Routes.channelMessages(sandbox.channelId), { body: { content: 'hi', allowed_mentions: { parse: ['users', 'channels'], users: ['x'] } } }),
		);
		expect(unknown.message).toContain('allowed_mentions.parse[1][BASE_TYPE_CHOICES]');
		expect(unknown.message).toContain('allowed_mentions.users[0][NUMBER_TYPE_COERCE]');
	});

	it('an edit of the content computes the mentions again from its own allowed_mentions, or the default without one', async () => {
		const message = await loudChannel.send({ content: `<@${otherId}> <@&${staff}>`, allowedMentions: { parse: [] } });
		expect(seen(message)).toEqual({ users: [], roles: [], everyone: false });
		// No allowed_mentions in the edit: the default parses everything, whatever the create said.
		const unmuted = await message.edit({ content: `<@${otherId}> <@&${staff}>` });
		expect(seen(unmuted)).toEqual({ users: [otherId], roles: [staff], everyone: false });
		// An edit that leaves the content alone leaves the mentions alone.
		expect(seen(await unmuted.edit({ components: [] }))).toEqual({ users: [otherId], roles: [staff], everyone: false });
		const muted = await unmuted.edit({ content: `<@${otherId}> again`, allowedMentions: { parse: [] } });
		expect(seen(muted)).toEqual({ users: [], roles: [], everyone: false });
		// The message no longer mentions anyone, but it did: the control API remembers.
		expect(await stored(message.id)).toMatchObject({ users: [], mention_roles: [], everMentioned: { users: [otherId], roles: [staff], everyone: false } });
	});
});

describe('interaction responses: only users are parsed unless allowed_mentions says otherwise', () => {
	it('reply, editReply and followUp parse users only by default, even with Mention Everyone; the app’s channel permission counts when asked', async () => {
		await withMentionEveryone(sandbox.bossId, async () => {
			const id = await onCommand(loud, 'loud', async (interaction) => {
				await interaction.reply(everything());
				await interaction.editReply(`edited ${everything()}`);
				await interaction.followUp({ content: everything(), flags: MessageFlags.Ephemeral });
				await interaction.followUp({ content: everything(), allowedMentions: { parse: [AllowedMentionsTypes.Everyone, AllowedMentionsTypes.Role] } });
			});
			const [reply, ephemeral, asked] = await responseMessages(id);
			expect(await stored(reply!)).toMatchObject({ users: [otherId], mention_roles: [], mention_everyone: false });
			expect((await control.message(sandbox.channelId, reply!)).content).toMatch(/^edited/);
			expect(await stored(ephemeral!)).toMatchObject({ users: [otherId], mention_roles: [], mention_everyone: false });
			expect((await control.message(sandbox.channelId, ephemeral!)).ephemeral).toBe(true);
			expect(await stored(asked!)).toMatchObject({ users: [], mention_roles: [staff, event], mention_everyone: true });
		});
	});

	it('without Mention Everyone, a response that asks for everything still pings no @everyone and no plain role', async () => {
		const id = await onCommand(loud, 'loud', async (interaction) => {
			await interaction.deferReply();
			await interaction.editReply({
				content: everything(),
				allowedMentions: { parse: [AllowedMentionsTypes.Everyone, AllowedMentionsTypes.Role, AllowedMentionsTypes.User] },
			});
		});
		const [reply] = await responseMessages(id);
		expect(await stored(reply!)).toMatchObject({ users: [otherId], mention_roles: [staff], mention_everyone: false });
	});

	it('refuses parse with a list of the same kind in a callback: data.allowed_mentions', async () => {
		await onCommand(loud, 'loud', async (interaction) => {
			const error = await apiFailure(interaction.reply({ content: 'hi', allowedMentions: { parse: [AllowedMentionsTypes.Role], roles: [staff] } }));
			expect(error.code).toBe(RESTJSONErrorCodes.InvalidFormBodyOrContentType);
			expect(error.message).toContain(
				'data.allowed_mentions[MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE]: parse:["roles"] and roles: [ids...] are mutually exclusive.',
			);
			await interaction.reply('answered after all');
		});
	});
});

describe('a client with allowedMentions { parse: [] }', () => {
	it('pings nobody, even with Mention Everyone: channel messages and edits, replies, deferred replies, ephemeral follow-ups and button updates', async () => {
		await withMentionEveryone(sandbox.workerIds[0]!, async () => {
			const posted = await quietChannel.send({
				content: everything(),
				components: [{ type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: 'go', label: 'Go' }] }],
			});
			await posted.edit(`edited ${everything()}`);
			await onCommand(quiet, 'quiet', async (interaction) => {
				await interaction.reply(everything());
				await interaction.editReply(`edited ${everything()}`);
				await interaction.followUp({ content: everything(), flags: MessageFlags.Ephemeral });
			});
			await onCommand(quiet, 'quiet', async (interaction) => {
				await interaction.deferReply({ flags: MessageFlags.Ephemeral });
				await interaction.editReply(everything());
				await interaction.followUp(everything());
			});
			const pressed = new Promise<void>((resolve, reject) => {
				quiet.once(Events.InteractionCreate, (interaction) => {
					if (!interaction.isButton()) return reject(new Error('expected the button'));
					interaction.update({ content: `pressed ${everything()}`, components: [] }).then(() => resolve(), reject);
				});
			});
			await control.pressButton(sandbox.guildId, sandbox.ownerId, sandbox.channelId, posted.id, 'go');
			await pressed;

			const quietMessages = (await control.messages(sandbox.channelId)).filter((message) => message.author.id === sandbox.workerIds[0]);
			// The channel message (which the press updated), two replies and two follow-ups.
			expect(quietMessages).toHaveLength(5);
			expect(quietMessages.filter((message) => message.ephemeral)).toHaveLength(2);
			expect(quietMessages.every((message) => message.content.includes(`<@${otherId}>`) && message.content.includes('@everyone'))).toBe(true);
			const quietIds = new Set(quietMessages.map((message) => message.id));
			expect((await control.mentioningMessages(sandbox.channelId)).filter((message) => quietIds.has(message.id))).toEqual([]);
		});
	});
});
