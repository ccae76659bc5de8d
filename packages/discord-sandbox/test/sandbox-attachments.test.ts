import { REST } from '@discordjs/rest';
import { ApplicationCommandOptionType, type APIChatInputApplicationCommandInteraction, Routes } from 'discord-api-types/v10';
import { AttachmentResponseSchema } from 'discord-api-spec/zod';
import { type ChatInputCommandInteraction, Client, Events, GatewayIntentBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl } from '../src/client/SandboxControl.js';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { checkAgainstSpec } from './support/checkAgainstSpec.js';
import { ManualClock } from './support/ManualClock.js';
import { waitUntil } from './support/waitUntil.js';

/**
 * An ATTACHMENT option, as Discord delivers it: the file in `data.resolved.attachments` with
 * Discord's fields, its signed URL on the sandbox's own host (standing for Discord's CDN), and
 * the bytes served there while the signature holds and the URL has not expired.
 *
 * @see https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-resolved-data-structure
 * @see https://discord.com/developers/docs/reference#signed-attachment-cdn-urls
 */

const clock = new ManualClock();
let sandbox: Sandbox;
let control: SandboxControl;
let client: Client;
const received: ChatInputCommandInteraction[] = [];

async function invoke(options: Record<string, unknown>): Promise<ChatInputCommandInteraction> {
	const before = received.length;
	await control.invoke(sandbox.guildId, sandbox.ownerId, 'ids', options);
	await waitUntil(() => received.length > before, { what: 'the interaction to arrive' });
	return received.at(-1)!;
}

async function refusal(options: Record<string, unknown>): Promise<string> {
	const error = await control.invoke(sandbox.guildId, sandbox.ownerId, 'ids', options).then(
		() => undefined,
		(thrown: unknown) => thrown as Error,
	);
	if (!error) throw new Error('the sandbox delivered it');
	expect(error.message).toContain('answered 400');
	return error.message;
}

beforeAll(async () => {
	sandbox = await startSandbox({ members: 20, workers: 1, seed: 3, now: clock.now });
	control = new SandboxControl(sandbox.controlUrl);
	const rest = new REST({ api: sandbox.apiUrl }).setToken(sandbox.bossToken);
	await rest.put(Routes.applicationGuildCommands(sandbox.bossId, sandbox.guildId), {
		body: [
			{
				name: 'ids',
				description: 'Take a file',
				options: [
					{ type: ApplicationCommandOptionType.Attachment, name: 'ids_file', description: 'A file' },
					{ type: ApplicationCommandOptionType.Boolean, name: 'dry_run', description: 'Count only' },
				],
			},
		],
	});
	client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: sandbox.apiUrl } });
	client.on(Events.InteractionCreate, (interaction) => {
		if (interaction.isChatInputCommand()) received.push(interaction);
	});
	const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
	await client.login(sandbox.bossToken);
	await ready;
});

afterAll(async () => {
	await client?.destroy();
	await sandbox?.close();
});

describe('an attachment option', () => {
	it("arrives in data.resolved.attachments with Discord's fields, as discord.js reads it", async () => {
		const content = '175928847299117063\n980000000000000001\n';
		const interaction = await invoke({ ids_file: { filename: 'raid ids.txt', content }, dry_run: true });
		const attachment = interaction.options.getAttachment('ids_file', true);
		expect(attachment.name).toBe('raid ids.txt');
		expect(attachment.size).toBe(Buffer.byteLength(content));
		expect(attachment.contentType).toBe('text/plain; charset=utf-8');
		expect(attachment.ephemeral).toBe(true);
		expect(attachment.url).toMatch(
			new RegExp(
				`^${sandbox.apiUrl.replace('/api', '')}/ephemeral-attachments/${sandbox.channelId}/${attachment.id}/raid%20ids\\.txt\\?ex=[0-9a-f]{8}&is=[0-9a-f]{8}&hm=[0-9a-f]{64}&$`,
			),
		);
		expect(attachment.proxyURL).toBe(attachment.url);
		// The option's value is the attachment's id, as Discord sends it.
		expect(interaction.options.get('ids_file')?.value).toBe(attachment.id);
		const raw = sandbox.state.interactions.get(interaction.id)!.payload as APIChatInputApplicationCommandInteraction;
		const resolved = raw.data.resolved?.attachments?.[attachment.id];
		expect(checkAgainstSpec(AttachmentResponseSchema, resolved).problems).toEqual([]);
		expect(Number.parseInt(new URL(attachment.url).searchParams.get('ex')!, 16) - Number.parseInt(new URL(attachment.url).searchParams.get('is')!, 16)).toBe(
			86_400,
		);
	});

	it('is served at its url with its bytes and type, and the fetch is counted', async () => {
		const content = 'User ID,Name\n175928847299117063,Zoë\n';
		const attachment = (await invoke({ ids_file: { filename: 'export.csv', content } })).options.getAttachment('ids_file', true);
		const response = await fetch(attachment.url);
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
		expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(content)));
		expect(await response.text()).toBe(content);
		expect((await control.attachments()).find((file) => file.id === attachment.id)).toMatchObject({ filename: 'export.csv', downloads: 1 });
	});

	it('takes bytes that are not UTF-8 as base64, with the content type given', async () => {
		const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('175928847299117063', 'utf16le')]);
		const attachment = (
			await invoke({ ids_file: { filename: 'ids.txt', contentBase64: bytes.toString('base64'), contentType: 'text/plain; charset=utf-16le' } })
		).options.getAttachment('ids_file', true);
		expect(attachment.contentType).toBe('text/plain; charset=utf-16le');
		expect(Buffer.from(await (await fetch(attachment.url)).arrayBuffer())).toEqual(bytes);
	});

	it('is not served when its signature is changed or missing, nor once its URL expired', async () => {
		const attachment = (await invoke({ ids_file: { filename: 'a.txt', content: 'x' } })).options.getAttachment('ids_file', true);
		const url = new URL(attachment.url);
		const tampered = new URL(url);
		tampered.searchParams.set('ex', (Number.parseInt(url.searchParams.get('ex')!, 16) + 3600).toString(16));
		const unsigned = `${url.origin}${url.pathname}`;
		for (const bad of [tampered.href, unsigned, attachment.url.replace('/a.txt', '/b.txt')]) {
			const response = await fetch(bad);
			expect(response.status, bad).toBe(404);
			expect(await response.text()).toBe('This content is no longer available.');
		}
		expect((await fetch(attachment.url, { method: 'POST' })).status).toBe(405);
		expect((await fetch(attachment.url)).status).toBe(200);
		clock.advance(24 * 60 * 60 * 1000);
		expect((await fetch(attachment.url)).status).toBe(404);
	});

	it('is refused when it is not a file Discord would take', async () => {
		expect(await refusal({ ids_file: 'ids.txt' })).toContain('must be a file');
		expect(await refusal({ ids_file: { content: 'x' } })).toContain('needs a filename');
		expect(await refusal({ ids_file: { filename: 'a/b.txt', content: 'x' } })).toContain('no slash');
		expect(await refusal({ ids_file: { filename: 'a.txt' } })).toContain('content (text) or contentBase64, one of them');
		expect(await refusal({ ids_file: { filename: 'a.txt', content: 'x', contentBase64: 'eA==' } })).toContain('one of them');
		expect(await refusal({ ids_file: { filename: 'a.txt', contentBase64: 'not base64!' } })).toContain('must be base64');
		expect(await refusal({ ids_file: { filename: 'big.txt', content: 'x'.repeat(10 * 1024 * 1024 + 1) } })).toContain('attachment_size_limit');
	});
});
