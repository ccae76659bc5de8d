import { REST } from '@discordjs/rest';
import {
	AuditLogEvent,
	GatewayDispatchEvents,
	RESTJSONErrorCodes,
	Routes,
	type APIAuditLog,
	type APIGuild,
	type APIIncidentsData,
	type GatewayGuildUpdateDispatchData,
} from 'discord-api-types/v10';
import { Client, Events, GatewayIntentBits, type Guild } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl } from '../src/client/SandboxControl.js';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { apiFailure } from './support/apiFailure.js';
import { loginAll } from './support/loginAll.js';
import { waitUntil } from './support/waitUntil.js';

/**
 * Modify Guild Incident Actions (paused invites and DMs) through the real discord.js, with
 * Discord's rules: Manage Guild, the 24-hour bound, null lifts, a PUT replaces both actions, a
 * pause that ran out reads null, GUILD_UPDATE carries `incidents_data`. The sandbox's clock is
 * driven (`skew`) to let a pause run out without waiting.
 */
let sandbox: Sandbox;
let control: SandboxControl;
let rest: REST;
let client: Client;
let skew = 0;
const guildUpdates: GatewayGuildUpdateDispatchData[] = [];
const PERMISSIONS = ['ManageNicknames', 'ViewAuditLog', 'ManageGuild'];
const HOUR = 3_600_000;

beforeAll(async () => {
	sandbox = await startSandbox({ members: 50, workers: 1, seed: 43, timeScale: 50, now: () => Date.now() + skew });
	control = new SandboxControl(sandbox.controlUrl);
	await control.editRole(sandbox.guildId, sandbox.state.guild.roleIds.Massnick, { permissions: PERMISSIONS });
	rest = new REST({ api: sandbox.apiUrl, retries: 0 }).setToken(sandbox.bossToken);
	client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: sandbox.apiUrl, retries: 0 } });
	client.on(Events.Raw, (packet: { t: string; d: never }) => {
		if (packet.t === GatewayDispatchEvents.GuildUpdate) guildUpdates.push(packet.d);
	});
	await loginAll([[client, sandbox.bossToken]]);
});
afterAll(async () => {
	await client?.destroy();
	await sandbox?.close();
});

const guild = (): Guild => client.guilds.cache.get(sandbox.guildId)!;
const incidentsData = async (): Promise<APIIncidentsData | null> => ((await rest.get(Routes.guild(sandbox.guildId))) as APIGuild).incidents_data;
const put = (body: Record<string, unknown>): Promise<APIIncidentsData> =>
	rest.put(Routes.guildIncidentActions(sandbox.guildId), { body }) as Promise<APIIncidentsData>;
const inHours = (hours: number): string => new Date(Date.now() + skew + hours * HOUR).toISOString();

describe('PUT /guilds/{id}/incident-actions', () => {
	it('pauses invites and DMs with guild.setIncidentActions: answers incidents_data, GUILD_UPDATE carries it, discord.js keeps it; null resumes', async () => {
		const until = new Date(Date.now() + 2 * HOUR);
		const data = await guild().setIncidentActions({ invitesDisabledUntil: until, dmsDisabledUntil: until });
		expect(data.invitesDisabledUntil?.getTime()).toBe(until.getTime());
		await waitUntil(() => guild().incidentsData?.dmsDisabledUntil?.getTime() === until.getTime(), { what: 'GUILD_UPDATE with incidents_data' });
		expect(guildUpdates.at(-1)!.incidents_data).toMatchObject({ invites_disabled_until: expect.any(String) });
		expect(Date.parse((await incidentsData())!.invites_disabled_until!)).toBe(until.getTime());
		const resumed = await guild().setIncidentActions({ invitesDisabledUntil: null, dmsDisabledUntil: null });
		expect([resumed.invitesDisabledUntil, resumed.dmsDisabledUntil]).toEqual([null, null]);
		await waitUntil(() => guild().incidentsData?.invitesDisabledUntil === null, { what: 'the pause lifted in discord.js' });
	});

	it('replaces both actions: a field left out is lifted, as on Discord', async () => {
		await put({ invites_disabled_until: inHours(3), dms_disabled_until: inHours(3) });
		const answer = await put({ invites_disabled_until: inHours(1) });
		expect(answer.dms_disabled_until).toBe(null);
		expect(Date.parse(answer.invites_disabled_until!)).toBeGreaterThan(Date.now() + 0.9 * HOUR);
		expect((await incidentsData())?.dms_disabled_until).toBe(null);
		expect((await put({})).invites_disabled_until).toBe(null);
	});

	it('a pause reads null once its time has passed, in GET /guilds/{id} and in the next answer', async () => {
		await put({ invites_disabled_until: inHours(2), dms_disabled_until: inHours(6) });
		skew += 3 * HOUR;
		try {
			const data = await incidentsData();
			expect(data?.invites_disabled_until).toBe(null);
			expect(data?.dms_disabled_until).not.toBe(null);
			skew += 4 * HOUR;
			expect(await incidentsData()).toEqual({ invites_disabled_until: null, dms_disabled_until: null });
		} finally {
			skew = 0;
			await put({ invites_disabled_until: null, dms_disabled_until: null });
		}
	});

	it('refuses more than 24 hours ahead with 400/50035 naming the field, and changes nothing', async () => {
		await put({ invites_disabled_until: inHours(1), dms_disabled_until: null });
		for (const field of ['invites_disabled_until', 'dms_disabled_until'] as const) {
			const tooLate = await apiFailure(put({ [field]: inHours(24.1) }));
			expect([tooLate.status, tooLate.code]).toEqual([400, RESTJSONErrorCodes.InvalidFormBodyOrContentType]);
			expect(tooLate.rawError).toMatchObject({ errors: { [field]: { _errors: [{ message: expect.stringMatching(/cannot exceed 24 hours/) }] } } });
		}
		expect((await incidentsData())?.invites_disabled_until).not.toBe(null);
		expect(Date.parse((await put({ invites_disabled_until: inHours(23.9) })).invites_disabled_until!)).toBeGreaterThan(Date.now() + 23 * HOUR);
		expect((await apiFailure(put({ invites_disabled_until: 'tomorrow' }))).status).toBe(400);
		await put({ invites_disabled_until: null });
	});

	it('refuses a bot without Manage Guild with 403/50013, and writes no audit-log entry (Discord documents none)', async () => {
		await control.editRole(sandbox.guildId, sandbox.state.guild.roleIds.Massnick, { permissions: ['ManageNicknames', 'ViewAuditLog'] });
		try {
			const refused = await apiFailure(put({ invites_disabled_until: inHours(1) }));
			expect([refused.status, refused.code]).toEqual([403, RESTJSONErrorCodes.MissingPermissions]);
		} finally {
			await control.editRole(sandbox.guildId, sandbox.state.guild.roleIds.Massnick, { permissions: PERMISSIONS });
		}
		expect((await incidentsData())?.invites_disabled_until ?? null).toBe(null);
		const before = ((await rest.get(Routes.guildAuditLog(sandbox.guildId))) as APIAuditLog).audit_log_entries.length;
		await rest.put(Routes.guildIncidentActions(sandbox.guildId), { body: { invites_disabled_until: inHours(1) }, reason: 'raid' });
		const entries = ((await rest.get(Routes.guildAuditLog(sandbox.guildId))) as APIAuditLog).audit_log_entries;
		expect(entries.length).toBe(before);
		expect(entries.some((entry) => entry.action_type === AuditLogEvent.GuildUpdate)).toBe(false);
	});
});
