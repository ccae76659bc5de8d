import {
	ApplicationCommandOptionType,
	ButtonStyle,
	ComponentType,
	InteractionResponseType,
	MessageFlags,
	MessageType,
	RESTJSONErrorCodes,
	type APIApplicationCommand,
	type APIMessage,
	type RESTPutAPIApplicationGuildCommandsJSONBody,
} from 'discord-api-types/v10';
import { ErrorResponseSchema, RatelimitedResponseSchema } from 'discord-api-spec/zod';
import type * as z from 'zod/mini';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../src/rest/restRoutes.js';
import type { Route } from '../src/rest/Route.js';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { checkAgainstSpec } from './support/checkAgainstSpec.js';
import { renamableMembers } from '../src/renamableMembers.js';
import { specDeviations } from './support/specDeviations.js';
import { specOperation } from './support/specOperations.js';

/**
 * Every JSON body the sandbox's REST API sends (successes, Discord's error bodies, 429s) is
 * checked against the schemas generated from Discord's OpenAPI spec (`discord-api-spec/zod`),
 * using the response schema the spec gives for that route's operation and status.
 */

type RouteKey = `${Route['method']} ${string}`;

/** Which operation of Discord's spec each route the sandbox serves is, by operationId. */
const OPERATION_OF: Readonly<Record<RouteKey, string>> = {
	'GET /gateway': 'get_gateway',
	'GET /gateway/bot': 'get_bot_gateway',
	'GET /users/@me': 'get_my_user',
	'GET /users/:user': 'get_user',
	'GET /applications/@me': 'get_my_application',
	'GET /guilds/:guild': 'get_guild',
	'GET /guilds/:guild/roles': 'list_guild_roles',
	'GET /guilds/:guild/roles/member-counts': 'guild_role_member_counts',
	'DELETE /guilds/:guild/roles/:role': 'delete_guild_role',
	'GET /guilds/:guild/channels': 'list_guild_channels',
	'GET /guilds/:guild/audit-logs': 'list_guild_audit_log_entries',
	'GET /guilds/:guild/members': 'list_guild_members',
	'PATCH /guilds/:guild/members/@me': 'update_my_guild_member',
	'GET /guilds/:guild/members/:user': 'get_guild_member',
	'PATCH /guilds/:guild/members/:user': 'update_guild_member',
	'PUT /guilds/:guild/members/:user/roles/:role': 'add_guild_member_role',
	'DELETE /guilds/:guild/members/:user/roles/:role': 'delete_guild_member_role',
	'DELETE /guilds/:guild/members/:user': 'delete_guild_member',
	'GET /guilds/:guild/bans': 'list_guild_bans',
	'GET /guilds/:guild/bans/:user': 'get_guild_ban',
	'PUT /guilds/:guild/bans/:user': 'ban_user_from_guild',
	'DELETE /guilds/:guild/bans/:user': 'unban_user_from_guild',
	'POST /guilds/:guild/bulk-ban': 'bulk_ban_users_from_guild',
	'PUT /guilds/:guild/incident-actions': 'update_guild_incident_actions',
	'GET /applications/:app/guilds/:guild/commands': 'list_guild_application_commands',
	'PUT /applications/:app/guilds/:guild/commands': 'bulk_set_guild_application_commands',
	'POST /interactions/:interaction/:token/callback': 'create_interaction_response',
	'GET /webhooks/:app/:token/messages/@original': 'get_original_webhook_message',
	'PATCH /webhooks/:app/:token/messages/@original': 'update_original_webhook_message',
	'DELETE /webhooks/:app/:token/messages/@original': 'delete_original_webhook_message',
	'GET /webhooks/:app/:token/messages/:message': 'get_webhook_message',
	'PATCH /webhooks/:app/:token/messages/:message': 'update_webhook_message',
	'DELETE /webhooks/:app/:token/messages/:message': 'delete_webhook_message',
	'POST /webhooks/:app/:token': 'execute_webhook',
	'POST /channels/:channel/messages': 'create_message',
	'GET /channels/:channel/messages': 'list_messages',
	'GET /channels/:channel/messages/:message': 'get_message',
	'PATCH /channels/:channel/messages/:message': 'update_message',
	'DELETE /channels/:channel/messages/:message': 'delete_message',
};

const keyOf = (route: Route): RouteKey => `${route.method} ${route.path}`;

/** What the test saw each route answer and checked: a success (2xx) and an error (4xx/5xx). */
const checked = new Map<RouteKey, Set<'success' | 'error'>>();
const excused = new Set<string>();
const rateLimitScopes = new Set<string>();

interface Answer {
	status: number;
	// The body is the sandbox's, already checked against the spec; tests read fields from it.
	body: any;
	headers: Headers;
}

interface Call {
	params?: Record<string, string>;
	query?: Record<string, string>;
	/** Sent as JSON; `raw` is sent as is. */
	body?: unknown;
	raw?: string;
	/** The bot token to send; defaults to the boss's on routes that need one. `null` sends none. */
	token?: string | null;
	headers?: Record<string, string>;
}

/** The spec's schema for an answer: the operation's own for that status, else its `4XX` (5XX isn't in the spec). */
function schemaFor(key: RouteKey, status: number): z.ZodMiniType | null {
	const { operationId, responses } = specOperation(OPERATION_OF[key]!);
	const own = responses.get(String(status));
	if (own !== undefined) return own;
	const fallback = status >= 400 && status !== 429 ? responses.get('4XX') : undefined;
	if (fallback === undefined) throw new Error(`${key} answered ${status}, which the spec's ${operationId} does not list (${[...responses.keys()].join(', ')})`);
	return fallback;
}

/** Fails the test (softly, so one run lists every bad body) with each issue the spec finds. */
function expectSpecBody(label: string, schema: z.ZodMiniType | null, status: number, text: string, headers: Headers): unknown {
	if (schema === null) {
		expect.soft(text, `${label}: ${status} must have no body`).toBe('');
		return undefined;
	}
	expect.soft(headers.get('content-type'), `${label}: Content-Type`).toBe('application/json');
	const body: unknown = JSON.parse(text);
	const result = checkAgainstSpec(schema, body);
	result.excused.forEach((name) => excused.add(name));
	expect.soft(result.problems, `${label} sent a body Discord's spec rejects:\n  ${result.problems.join('\n  ')}\n`).toEqual([]);
	if (status === 429) rateLimitScopes.add(headers.get('x-ratelimit-scope') ?? '(none)');
	return body;
}

/** Calls one of the sandbox's routes, filling its path from `params`, and checks the answer against the spec. */
async function call(on: Sandbox, key: RouteKey, options: Call = {}): Promise<Answer> {
	const route = restRoutes.find((candidate) => keyOf(candidate) === key);
	if (!route) throw new Error(`the sandbox serves no ${key}`);
	const params: Record<string, string> = { guild: on.guildId, channel: on.channelId, app: on.bossId, ...options.params };
	const path = route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? `(no ${name})`));
	const url = `${on.apiUrl}/v10${path}${options.query ? `?${new URLSearchParams(options.query)}` : ''}`;
	const token = options.token === undefined ? (route.auth === 'bot' ? on.bossToken : null) : options.token;
	const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
	const response = await fetch(url, {
		method: route.method,
		headers: { ...(token ? { Authorization: `Bot ${token}` } : {}), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...options.headers },
		...(body === undefined ? {} : { body }),
	});
	const text = await response.text();
	const label = `${key} → ${response.status} (${OPERATION_OF[key]})`;
	const parsed = expectSpecBody(label, schemaFor(key, response.status), response.status, text, response.headers);
	const seen = checked.get(key) ?? new Set();
	seen.add(response.status < 400 ? 'success' : 'error');
	checked.set(key, seen);
	return { status: response.status, body: parsed, headers: response.headers };
}

/** A request no route matches; its body must still be Discord's error body. */
async function unrouted(on: Sandbox, method: string, path: string): Promise<Answer> {
	const response = await fetch(`${on.apiUrl}${path}`, { method });
	const text = await response.text();
	const schema = response.status === 429 ? RatelimitedResponseSchema : ErrorResponseSchema;
	const body = expectSpecBody(`${method} ${path} → ${response.status}`, schema, response.status, text, response.headers);
	return { status: response.status, body, headers: response.headers };
}

async function control(on: Sandbox, method: string, path: string, body?: unknown): Promise<any> {
	const response = await fetch(`${on.controlUrl}${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
	expect(response.status, `control ${method} ${path}`).toBeLessThan(300);
	return response.json();
}

const COMMANDS: RESTPutAPIApplicationGuildCommandsJSONBody = [
	{
		name: 'massnick',
		description: 'Rename everyone',
		default_member_permissions: '134217728',
		options: [
			{ type: ApplicationCommandOptionType.String, name: 'name', description: 'The nickname', required: true, max_length: 32 },
			{ type: ApplicationCommandOptionType.Role, name: 'role', description: 'Only this role' },
			{ type: ApplicationCommandOptionType.Integer, name: 'limit', description: 'At most', min_value: 1, max_value: 1000 },
			{ type: ApplicationCommandOptionType.String, name: 'mode', description: 'How', choices: [{ name: 'Fast', value: 'fast' }] },
			{ type: ApplicationCommandOptionType.Boolean, name: 'dry_run', description: 'Count only' },
		],
	},
	{
		name: 'jobs',
		description: 'Manage jobs',
		options: [
			{
				type: ApplicationCommandOptionType.Subcommand,
				name: 'cancel',
				description: 'Cancel a job',
				options: [{ type: ApplicationCommandOptionType.Integer, name: 'id', description: 'Job' }],
			},
		],
	},
	{ name: 'status', description: 'Show progress' },
];

/** A message with everything the sandbox echoes: content, an embed and a button row. */
const RICH_MESSAGE = {
	content: 'Renaming 1,000 members',
	embeds: [{ title: 'Progress', description: '10%', color: 0xe67e22, fields: [{ name: 'Done', value: '100', inline: true }], footer: { text: 'massnick' } }],
	components: [
		{ type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: 'cancel', label: 'Cancel' }] },
	],
};

let sandbox: Sandbox;
/** Added to the sandbox's clock, to let interaction deadlines and token lifetimes pass without waiting. */
let skew = 0;

beforeAll(async () => {
	const generous = { limit: 1000 };
	sandbox = await startSandbox({
		members: 60,
		workers: 2,
		seed: 11,
		now: () => Date.now() + skew,
		// Limits are the rate-limit suite's business; here every call must get through.
		rateLimits: {
			global: generous,
			routes: {
				memberEdit: generous,
				memberEditMe: generous,
				memberList: generous,
				memberGet: generous,
				memberRole: generous,
				memberKick: generous,
				memberBan: generous,
				memberUnban: generous,
				banList: generous,
				bulkBan: generous,
				commands: generous,
				messageCreate: generous,
				messageEdit: generous,
			},
		},
	});
});
afterAll(async () => {
	await sandbox.close();
});

async function invoke(command: string, options: Record<string, unknown> = {}): Promise<{ id: string; token: string }> {
	const { id } = (await control(sandbox, 'POST', '/interactions', { guildId: sandbox.guildId, userId: sandbox.ownerId, command, options })) as { id: string };
	return { id, token: sandbox.state.interactions.get(id)!.token };
}

describe('the route table', () => {
	it('maps every route the sandbox serves to an operation of Discord’s spec with the same method and path', () => {
		const problems: string[] = [];
		for (const route of restRoutes) {
			const operationId = OPERATION_OF[keyOf(route)];
			if (!operationId) {
				problems.push(`${keyOf(route)}: no operation in OPERATION_OF; add it, and calls that check its bodies`);
				continue;
			}
			const operation = specOperation(operationId);
			const ours = route.path.split('/');
			const theirs = operation.path.split('/');
			const samePath =
				ours.length === theirs.length && ours.every((segment, i) => (segment.startsWith(':') ? /^\{\w+\}$/.test(theirs[i]!) : segment === theirs[i]));
			if (!samePath || operation.method !== route.method) problems.push(`${keyOf(route)} is not ${operationId} (${operation.method} ${operation.path})`);
		}
		const served = new Set(restRoutes.map(keyOf));
		for (const key of Object.keys(OPERATION_OF)) if (!served.has(key as RouteKey)) problems.push(`${key}: in OPERATION_OF but not served`);
		expect(problems).toEqual([]);
	});
});

describe('the check', () => {
	it('names what a body lacks, and excuses only what a deviation describes', async () => {
		const member = (await call(sandbox, 'GET /guilds/:guild/members/:user', { params: { user: sandbox.ownerId } })).body;
		const { responses } = specOperation('get_guild_member');
		delete member.user.flags;
		member.joined_at = 'yesterday';
		expect(checkAgainstSpec(responses.get('200')!, member).problems).toEqual([
			'joined_at: Invalid input, got "yesterday" (invalid_format datetime)',
			'user.flags: expected number, got nothing (invalid_type)',
		]);
		// Without retry_after a body is no rate-limit body: its missing code is not excused.
		expect(checkAgainstSpec(responses.get('4XX')!, { message: 'Unknown Member' }).problems).toEqual(['code: expected number, got nothing (invalid_type)']);
		expect(checkAgainstSpec(responses.get('429')!, { message: 'You are being rate limited.', global: false }).problems).toHaveLength(2);
		const invalidForm = {
			code: 50035,
			message: 'Invalid Form Body',
			errors: { nick: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 32 or fewer in length.' }] } },
		};
		expect(checkAgainstSpec(responses.get('4XX')!, invalidForm)).toEqual({ problems: [], excused: new Set(['field error codes are strings']) });
	});
});

describe('gateway and identity', () => {
	it('GET /gateway and /gateway/bot', async () => {
		expect((await call(sandbox, 'GET /gateway', {})).status).toBe(200);
		expect((await call(sandbox, 'GET /gateway/bot')).status).toBe(200);
		expect((await call(sandbox, 'GET /gateway/bot', { token: 'not-a-token' })).status).toBe(401);
	});

	it('GET /users/@me, /users/{id} and /applications/@me', async () => {
		expect((await call(sandbox, 'GET /users/@me')).status).toBe(200);
		expect((await call(sandbox, 'GET /users/@me', { token: null })).status).toBe(401);
		expect((await call(sandbox, 'GET /users/:user', { params: { user: sandbox.ownerId } })).status).toBe(200);
		expect((await call(sandbox, 'GET /users/:user', { params: { user: sandbox.workerIds[0]! } })).status).toBe(200);
		expect((await call(sandbox, 'GET /users/:user', { params: { user: '1' } })).body).toMatchObject({ code: RESTJSONErrorCodes.UnknownUser });
		expect((await call(sandbox, 'GET /users/:user', { params: { user: 'abc' } })).body).toMatchObject({
			code: RESTJSONErrorCodes.InvalidFormBodyOrContentType,
		});
		expect((await call(sandbox, 'GET /applications/@me')).status).toBe(200);
		expect((await call(sandbox, 'GET /applications/@me', { token: sandbox.workerTokens[0]! })).status).toBe(200);
		expect((await call(sandbox, 'GET /applications/@me', { token: null })).status).toBe(401);
	});
});

describe('guild', () => {
	it('GET /guilds/{id}, with and without counts, and its roles, role counts and channels', async () => {
		expect((await call(sandbox, 'GET /guilds/:guild')).status).toBe(200);
		expect((await call(sandbox, 'GET /guilds/:guild', { query: { with_counts: 'true' } })).body.approximate_member_count).toBeGreaterThan(0);
		expect((await call(sandbox, 'GET /guilds/:guild', { params: { guild: '1' } })).body).toMatchObject({ code: RESTJSONErrorCodes.UnknownGuild });
		for (const key of ['GET /guilds/:guild/roles', 'GET /guilds/:guild/channels', 'GET /guilds/:guild/roles/member-counts'] as const) {
			expect((await call(sandbox, key)).status).toBe(200);
			expect((await call(sandbox, key, { params: { guild: '1' } })).status).toBe(404);
		}
	});

	it('GET /guilds/{id}/audit-logs with renames that set, change and clear a nickname', async () => {
		const [target] = renamableMembers(sandbox);
		const rename = (nick: string | null, reason?: string) =>
			call(sandbox, 'PATCH /guilds/:guild/members/:user', {
				params: { user: target! },
				body: { nick },
				...(reason ? { headers: { 'X-Audit-Log-Reason': reason } } : {}),
			});
		expect((await rename('First', 'massnick job 1')).status).toBe(200);
		expect((await rename('Second')).status).toBe(200);
		expect((await rename(null, 'undo')).status).toBe(200);
		const log = await call(sandbox, 'GET /guilds/:guild/audit-logs', { query: { limit: '10' } });
		expect(log.body.audit_log_entries.length).toBeGreaterThanOrEqual(3);
		expect((await call(sandbox, 'GET /guilds/:guild/audit-logs', { query: { user_id: sandbox.ownerId } })).status).toBe(200);
		expect((await call(sandbox, 'GET /guilds/:guild/audit-logs', { query: { limit: '0' } })).body).toMatchObject({
			code: RESTJSONErrorCodes.InvalidFormBodyOrContentType,
		});
		expect((await call(sandbox, 'GET /guilds/:guild/audit-logs', { params: { guild: '1' } })).status).toBe(404);
	});
});

describe('members', () => {
	it('lists, gets and renames members, and refuses what Discord refuses', async () => {
		const [target, other] = renamableMembers(sandbox);
		expect((await call(sandbox, 'GET /guilds/:guild/members', { query: { limit: '100' } })).body.length).toBeGreaterThan(50);
		expect((await call(sandbox, 'GET /guilds/:guild/members', { query: { limit: '1001' } })).status).toBe(400);
		await control(sandbox, 'POST', '/faults', { membersIntent: { appId: sandbox.workerIds[0], enabled: false } });
		expect((await call(sandbox, 'GET /guilds/:guild/members', { token: sandbox.workerTokens[0]! })).body).toMatchObject({
			code: RESTJSONErrorCodes.MissingAccess,
		});
		await control(sandbox, 'POST', '/faults', { resetFaults: true });

		expect((await call(sandbox, 'GET /guilds/:guild/members/:user', { params: { user: sandbox.ownerId } })).status).toBe(200);
		expect((await call(sandbox, 'GET /guilds/:guild/members/:user', { params: { user: '1' } })).body).toMatchObject({ code: RESTJSONErrorCodes.UnknownMember });

		expect(
			(await call(sandbox, 'PATCH /guilds/:guild/members/:user', { params: { user: other! }, body: { nick: 'Pumpkin' }, token: sandbox.workerTokens[1]! }))
				.status,
		).toBe(200);
		expect((await call(sandbox, 'PATCH /guilds/:guild/members/:user', { params: { user: target! }, body: { nick: 'x'.repeat(33) } })).status).toBe(400);
		expect((await call(sandbox, 'PATCH /guilds/:guild/members/:user', { params: { user: sandbox.ownerId }, body: { nick: 'Owner' } })).body).toMatchObject({
			code: RESTJSONErrorCodes.MissingPermissions,
		});
		expect((await call(sandbox, 'PATCH /guilds/:guild/members/:user', { params: { user: target! }, raw: '{"nick": ' })).body).toMatchObject({
			code: RESTJSONErrorCodes.RequestBodyContainsInvalidJSON,
		});

		expect((await call(sandbox, 'PATCH /guilds/:guild/members/@me', { body: { nick: 'Boss' } })).status).toBe(200);
		expect((await call(sandbox, 'PATCH /guilds/:guild/members/@me', { body: { nick: 'y'.repeat(33) } })).status).toBe(400);
	});

	it('gives and takes a role (204, no body), refuses what Discord refuses, and logs MEMBER_ROLE_UPDATE entries', async () => {
		const [target] = renamableMembers(sandbox);
		const { roleIds } = sandbox.state.guild;
		const given = { user: target!, role: roleIds.Event };
		const headers = { 'X-Audit-Log-Reason': 'massrole job 1' };
		expect((await call(sandbox, 'PUT /guilds/:guild/members/:user/roles/:role', { params: given, headers })).status).toBe(204);
		expect((await call(sandbox, 'DELETE /guilds/:guild/members/:user/roles/:role', { params: given, headers })).status).toBe(204);
		for (const key of ['PUT /guilds/:guild/members/:user/roles/:role', 'DELETE /guilds/:guild/members/:user/roles/:role'] as const) {
			expect((await call(sandbox, key, { params: { user: target!, role: roleIds.MEE6 } })).body).toMatchObject({ code: RESTJSONErrorCodes.MissingPermissions });
			expect((await call(sandbox, key, { params: { user: target!, role: sandbox.guildId } })).body).toMatchObject({ code: RESTJSONErrorCodes.UnknownRole });
			expect((await call(sandbox, key, { params: { user: '1', role: roleIds.Event } })).body).toMatchObject({ code: RESTJSONErrorCodes.UnknownMember });
		}
		const log = await call(sandbox, 'GET /guilds/:guild/audit-logs', { query: { action_type: '25', limit: '2' } });
		expect(log.body.audit_log_entries.map((entry: { changes: Array<{ key: string }> }) => entry.changes[0]!.key)).toEqual(['$remove', '$add']);
	});

	it('deletes a role (204, no body), refuses what Discord refuses, and logs a ROLE_DELETE entry targeting the role', async () => {
		const role = await control(sandbox, 'POST', `/guilds/${sandbox.guildId}/roles`, { name: 'Doomed', mentionable: true });
		const headers = { 'X-Audit-Log-Reason': 'cleanup' };
		expect((await call(sandbox, 'DELETE /guilds/:guild/roles/:role', { params: { role: role.id }, headers })).status).toBe(204);
		expect((await call(sandbox, 'DELETE /guilds/:guild/roles/:role', { params: { role: role.id } })).body).toMatchObject({
			code: RESTJSONErrorCodes.UnknownRole,
		});
		expect((await call(sandbox, 'DELETE /guilds/:guild/roles/:role', { params: { role: sandbox.guildId } })).body).toMatchObject({
			code: RESTJSONErrorCodes.InvalidRole,
		});
		const { roleIds } = sandbox.state.guild;
		expect((await call(sandbox, 'DELETE /guilds/:guild/roles/:role', { params: { role: roleIds.Admin } })).body).toMatchObject({
			code: RESTJSONErrorCodes.MissingPermissions,
		});
		const log = await call(sandbox, 'GET /guilds/:guild/audit-logs', { query: { action_type: '32', limit: '1' } });
		expect(log.body.audit_log_entries).toMatchObject([
			{ target_id: role.id, user_id: sandbox.bossId, reason: 'cleanup', changes: expect.arrayContaining([{ key: 'name', old_value: 'Doomed' }]) },
		]);
	});
});

describe('moderation', () => {
	/** The bots' role with what a raid cleanup needs, as an operator would grant it; taken back after. */
	async function withModeration<T>(run: () => Promise<T>): Promise<T> {
		const role = sandbox.state.rolesById.get(sandbox.state.guild.roleIds.Massnick)!;
		const before = role.permissions;
		await control(sandbox, 'PATCH', `/guilds/${sandbox.guildId}/roles/${role.id}`, {
			permissions: ['ManageNicknames', 'ViewAuditLog', 'BanMembers', 'KickMembers', 'ModerateMembers', 'ManageGuild'],
		});
		try {
			return await run();
		} finally {
			await control(sandbox, 'PATCH', `/guilds/${sandbox.guildId}/roles/${role.id}`, { permissions: before });
		}
	}

	it('bans, lists, reads and unbans, bulk bans, kicks and times out, and refuses what Discord refuses', async () => {
		await withModeration(async () => {
			const [banned, bulk, kicked, timedOut] = renamableMembers(sandbox).slice(-4);
			const user = (id: string) => ({ params: { user: id } });
			expect((await call(sandbox, 'PUT /guilds/:guild/bans/:user', { ...user(banned!), body: { delete_message_seconds: 60 } })).status).toBe(204);
			expect((await call(sandbox, 'PUT /guilds/:guild/bans/:user', { ...user(sandbox.ownerId), body: {} })).status).toBe(403);
			const list = await call(sandbox, 'GET /guilds/:guild/bans', { query: { limit: '10' } });
			expect(list.body.map((ban: { user: { id: string } }) => ban.user.id)).toContain(banned);
			expect((await call(sandbox, 'GET /guilds/:guild/bans', { query: { limit: '0' } })).status).toBe(400);
			expect((await call(sandbox, 'GET /guilds/:guild/bans/:user', user(banned!))).body.user.id).toBe(banned);
			expect((await call(sandbox, 'GET /guilds/:guild/bans/:user', user(bulk!))).status).toBe(404);
			const bulkBan = await call(sandbox, 'POST /guilds/:guild/bulk-ban', { body: { user_ids: [bulk!, banned!] } });
			expect(bulkBan.body).toEqual({ banned_users: [bulk], failed_users: [banned] });
			expect((await call(sandbox, 'POST /guilds/:guild/bulk-ban', { body: { user_ids: [sandbox.ownerId] } })).body.code).toBe(
				RESTJSONErrorCodes.FailedToBanUsers,
			);
			expect((await call(sandbox, 'DELETE /guilds/:guild/bans/:user', user(banned!))).status).toBe(204);
			expect((await call(sandbox, 'DELETE /guilds/:guild/bans/:user', user(banned!))).body.code).toBe(RESTJSONErrorCodes.UnknownBan);
			expect((await call(sandbox, 'DELETE /guilds/:guild/members/:user', user(kicked!))).status).toBe(204);
			expect((await call(sandbox, 'DELETE /guilds/:guild/members/:user', user(kicked!))).body.code).toBe(RESTJSONErrorCodes.UnknownMember);
			const until = new Date(Date.now() + 3_600_000).toISOString();
			const timeout = await call(sandbox, 'PATCH /guilds/:guild/members/:user', { ...user(timedOut!), body: { communication_disabled_until: until } });
			expect(Date.parse(timeout.body.communication_disabled_until)).toBe(Date.parse(until));
			const tooLong = new Date(Date.now() + 29 * 86_400_000).toISOString();
			const refused = await call(sandbox, 'PATCH /guilds/:guild/members/:user', { ...user(timedOut!), body: { communication_disabled_until: tooLong } });
			expect(refused.body.errors.communication_disabled_until._errors[0].code).toBe('INVALID_COMMUNICATION_DISABLED_TIMESTAMP');
		});
	});

	it('pauses and resumes invites and DMs, and GET /guilds/{id} carries its incidents_data', async () => {
		await withModeration(async () => {
			const until = new Date(Date.now() + 3_600_000).toISOString();
			const paused = await call(sandbox, 'PUT /guilds/:guild/incident-actions', { body: { invites_disabled_until: until, dms_disabled_until: null } });
			expect(Date.parse(paused.body.invites_disabled_until)).toBe(Date.parse(until));
			const guild = await call(sandbox, 'GET /guilds/:guild');
			expect(guild.body.incidents_data).toEqual(paused.body);
			const tooLate = new Date(Date.now() + 25 * 3_600_000).toISOString();
			expect((await call(sandbox, 'PUT /guilds/:guild/incident-actions', { body: { invites_disabled_until: tooLate } })).status).toBe(400);
			expect((await call(sandbox, 'PUT /guilds/:guild/incident-actions', { body: { invites_disabled_until: null } })).body.invites_disabled_until).toBe(null);
		});
		expect((await call(sandbox, 'PUT /guilds/:guild/incident-actions', { body: { invites_disabled_until: null } })).status).toBe(403);
	});
});

describe('commands and interactions', () => {
	it('PUT and GET guild commands, and their 403 and 400', async () => {
		const put = await call(sandbox, 'PUT /applications/:app/guilds/:guild/commands', { body: COMMANDS });
		expect((put.body as APIApplicationCommand[]).map((command) => command.name)).toEqual(['massnick', 'jobs', 'status']);
		expect((await call(sandbox, 'GET /applications/:app/guilds/:guild/commands')).body).toHaveLength(3);
		expect((await call(sandbox, 'GET /applications/:app/guilds/:guild/commands', { params: { app: sandbox.workerIds[0]! } })).status).toBe(403);
		expect((await call(sandbox, 'PUT /applications/:app/guilds/:guild/commands', { body: [{ name: 'Bad Name', description: '' }] })).status).toBe(400);
		expect((await call(sandbox, 'PUT /applications/:app/guilds/:guild/commands', { body: {} })).status).toBe(400);
	});

	it('interaction callbacks: a reply with_response, a deferral with and without it, and the refusals', async () => {
		const callback = (interaction: { id: string; token: string }, body: unknown, withResponse = true) =>
			call(sandbox, 'POST /interactions/:interaction/:token/callback', {
				params: { interaction: interaction.id, token: interaction.token },
				body,
				...(withResponse ? { query: { with_response: 'true' } } : {}),
			});
		const replied = await invoke('massnick', { name: 'Pumpkin', role: 'Staff', dry_run: true });
		expect((await callback(replied, { type: InteractionResponseType.ChannelMessageWithSource, data: RICH_MESSAGE })).body.resource.type).toBe(
			InteractionResponseType.ChannelMessageWithSource,
		);
		expect((await callback(replied, { type: InteractionResponseType.ChannelMessageWithSource, data: { content: 'again' } })).body).toMatchObject({
			code: RESTJSONErrorCodes.InteractionHasAlreadyBeenAcknowledged,
		});

		const deferred = await invoke('status');
		const answer = await callback(deferred, { type: InteractionResponseType.DeferredChannelMessageWithSource, data: { flags: MessageFlags.Ephemeral } });
		expect(answer.body.interaction).toMatchObject({ id: deferred.id, response_message_loading: true, response_message_ephemeral: true });
		expect((await callback(await invoke('status'), { type: InteractionResponseType.DeferredChannelMessageWithSource }, false)).status).toBe(204);

		expect((await callback(await invoke('status'), { type: 99 })).status).toBe(400);
		expect(
			(await callback({ id: '1', token: 'nope' }, { type: InteractionResponseType.ChannelMessageWithSource, data: { content: 'hi' } })).body,
		).toMatchObject({
			code: RESTJSONErrorCodes.UnknownInteraction,
		});
		const late = await invoke('status');
		skew += sandbox.state.options.interactionResponseDeadlineMs + 1;
		expect((await callback(late, { type: InteractionResponseType.DeferredChannelMessageWithSource })).body).toMatchObject({
			code: RESTJSONErrorCodes.UnknownInteraction,
		});
	});

	it('interaction webhooks: @original and follow-ups, read, edited and deleted, until the token expires', async () => {
		const interaction = await invoke('status');
		const hook = { app: sandbox.bossId, token: interaction.token };
		expect((await call(sandbox, 'POST /webhooks/:app/:token', { params: hook, body: { content: 'too early' } })).body).toMatchObject({
			code: RESTJSONErrorCodes.UnknownWebhook,
		});
		await call(sandbox, 'POST /interactions/:interaction/:token/callback', {
			params: { interaction: interaction.id, token: interaction.token },
			body: { type: InteractionResponseType.DeferredChannelMessageWithSource },
		});

		expect((await call(sandbox, 'GET /webhooks/:app/:token/messages/@original', { params: hook })).body.flags & MessageFlags.Loading).toBe(
			MessageFlags.Loading,
		);
		expect((await call(sandbox, 'PATCH /webhooks/:app/:token/messages/@original', { params: hook, body: RICH_MESSAGE })).status).toBe(200);
		const followUp = await call(sandbox, 'POST /webhooks/:app/:token', {
			params: hook,
			query: { wait: 'true' },
			body: { content: 'More', embeds: RICH_MESSAGE.embeds },
		});
		expect(followUp.status).toBe(200);
		expect((await call(sandbox, 'POST /webhooks/:app/:token', { params: hook, body: { content: 'No wait' } })).status).toBe(204);
		expect((await call(sandbox, 'POST /webhooks/:app/:token', { params: hook, body: {} })).body).toMatchObject({
			code: RESTJSONErrorCodes.CannotSendAnEmptyMessage,
		});

		const message = { ...hook, message: (followUp.body as APIMessage).id };
		expect((await call(sandbox, 'GET /webhooks/:app/:token/messages/:message', { params: message })).status).toBe(200);
		expect((await call(sandbox, 'PATCH /webhooks/:app/:token/messages/:message', { params: message, body: { content: 'Edited' } })).body.content).toBe(
			'Edited',
		);
		expect((await call(sandbox, 'DELETE /webhooks/:app/:token/messages/:message', { params: message })).status).toBe(204);
		for (const key of [
			'GET /webhooks/:app/:token/messages/:message',
			'PATCH /webhooks/:app/:token/messages/:message',
			'DELETE /webhooks/:app/:token/messages/:message',
		] as const) {
			const body = key.startsWith('PATCH') ? { content: 'gone' } : undefined;
			expect((await call(sandbox, key, { params: message, body })).body).toMatchObject({ code: RESTJSONErrorCodes.UnknownMessage });
		}
		expect((await call(sandbox, 'DELETE /webhooks/:app/:token/messages/@original', { params: hook })).status).toBe(204);
		expect((await call(sandbox, 'DELETE /webhooks/:app/:token/messages/@original', { params: hook })).body).toMatchObject({
			code: RESTJSONErrorCodes.UnknownMessage,
		});

		const unknown = { app: sandbox.bossId, token: 'unknown-token' };
		expect((await call(sandbox, 'GET /webhooks/:app/:token/messages/@original', { params: unknown })).body).toMatchObject({
			code: RESTJSONErrorCodes.UnknownWebhook,
		});
		skew += sandbox.state.options.interactionTokenLifetimeMs + 1;
		expect((await call(sandbox, 'PATCH /webhooks/:app/:token/messages/@original', { params: hook, body: { content: 'too late' } })).body).toMatchObject({
			code: RESTJSONErrorCodes.InvalidWebhookToken,
		});
	});
});

describe('channel messages', () => {
	it('posts, lists, reads, edits and deletes, and refuses what Discord refuses', async () => {
		// Mentions of a user and of a mentionable role: `mentions` holds user objects.
		const mentioning = await call(sandbox, 'POST /channels/:channel/messages', {
			body: { content: `<@${sandbox.ownerId}> <@&${sandbox.state.guild.roleIds.Staff}>` },
		});
		expect(mentioning.body).toMatchObject({ mentions: [{ id: sandbox.ownerId }], mention_roles: [sandbox.state.guild.roleIds.Staff], mention_everyone: false });
		expect(
			(await call(sandbox, 'POST /channels/:channel/messages', { body: { content: 'x', allowed_mentions: { parse: ['users'], users: [sandbox.ownerId] } } }))
				.status,
		).toBe(400);
		const posted = await call(sandbox, 'POST /channels/:channel/messages', { body: RICH_MESSAGE });
		// Discord numbers components a bot left without an id: from 1, parents first, skipping ids in use.
		expect(posted.body.components).toMatchObject([{ id: 1, components: [{ id: 2 }] }]);
		const buttonFirst = { type: ComponentType.ActionRow, components: [{ ...RICH_MESSAGE.components[0]!.components[0]!, id: 1 }] };
		expect((await call(sandbox, 'POST /channels/:channel/messages', { body: { content: 'ids', components: [buttonFirst] } })).body.components).toMatchObject([
			{ id: 2, components: [{ id: 1 }] },
		]);
		const message = { message: (posted.body as APIMessage).id };
		expect((await call(sandbox, 'POST /channels/:channel/messages', { body: { content: '' } })).body).toMatchObject({
			code: RESTJSONErrorCodes.CannotSendAnEmptyMessage,
		});
		expect((await call(sandbox, 'POST /channels/:channel/messages', { params: { channel: '1' }, body: { content: 'hi' } })).body).toMatchObject({
			code: RESTJSONErrorCodes.UnknownChannel,
		});

		expect((await call(sandbox, 'GET /channels/:channel/messages', { query: { limit: '10' } })).body.length).toBeGreaterThan(0);
		expect((await call(sandbox, 'GET /channels/:channel/messages', { params: { channel: '1' } })).status).toBe(404);
		expect((await call(sandbox, 'GET /channels/:channel/messages/:message', { params: message })).status).toBe(200);
		expect((await call(sandbox, 'GET /channels/:channel/messages/:message', { params: { message: '1' } })).body).toMatchObject({
			code: RESTJSONErrorCodes.UnknownMessage,
		});

		expect(
			(await call(sandbox, 'PATCH /channels/:channel/messages/:message', { params: message, body: { content: 'Renamed 1,000 members', components: [] } }))
				.status,
		).toBe(200);
		expect(
			(await call(sandbox, 'PATCH /channels/:channel/messages/:message', { params: message, body: { content: 'mine' }, token: sandbox.workerTokens[0]! })).body,
		).toMatchObject({
			code: RESTJSONErrorCodes.CannotEditMessageAuthoredByAnotherUser,
		});
		expect((await call(sandbox, 'DELETE /channels/:channel/messages/:message', { params: message })).status).toBe(204);
		expect((await call(sandbox, 'DELETE /channels/:channel/messages/:message', { params: message })).body).toMatchObject({
			code: RESTJSONErrorCodes.UnknownMessage,
		});
	});
});

describe('message components', () => {
	/** A bot message with two buttons, pressed by the owner: the interaction's id and token. */
	async function press(customId = 'start'): Promise<{ id: string; token: string; messageId: string }> {
		const posted = await call(sandbox, 'POST /channels/:channel/messages', {
			body: { content: 'Preview', components: [{ type: ComponentType.ActionRow, components: [button('start'), button('cancel')] }] },
		});
		const messageId = (posted.body as APIMessage).id;
		const { id } = (await control(sandbox, 'POST', '/interactions/component', {
			guildId: sandbox.guildId,
			userId: sandbox.ownerId,
			channelId: sandbox.channelId,
			messageId,
			customId,
		})) as { id: string };
		return { id, token: sandbox.state.interactions.get(id)!.token, messageId };
	}
	const button = (customId: string) => ({ type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: customId, label: customId });
	const callback = (interaction: { id: string; token: string }, body: unknown) =>
		call(sandbox, 'POST /interactions/:interaction/:token/callback', {
			params: { interaction: interaction.id, token: interaction.token },
			body,
			query: { with_response: 'true' },
		});

	it('callbacks 7 and 6 on a press, the reply to a press, its follow-up, and the refusals of bad components', async () => {
		const updated = await press();
		const update = await callback(updated, { type: InteractionResponseType.UpdateMessage, data: { content: 'Started', components: [] } });
		expect(update.body).toMatchObject({
			interaction: { type: 3, response_message_id: updated.messageId },
			resource: { type: InteractionResponseType.UpdateMessage, message: { content: 'Started' } },
		});

		const deferred = await press('cancel');
		expect((await callback(deferred, { type: InteractionResponseType.DeferredMessageUpdate })).body.resource).toBeUndefined();
		const hook = { app: sandbox.bossId, token: deferred.token };
		expect(
			(await call(sandbox, 'PATCH /webhooks/:app/:token/messages/@original', { params: hook, body: { content: 'Cancelled', components: [] } })).body.id,
		).toBe(deferred.messageId);
		const followUp = await call(sandbox, 'POST /webhooks/:app/:token', { params: hook, query: { wait: 'true' }, body: { content: 'Nothing renamed' } });
		expect(followUp.body).toMatchObject({
			type: MessageType.Reply,
			message_reference: { message_id: deferred.messageId },
			interaction_metadata: { type: 3, original_response_message_id: deferred.messageId },
		});

		const replied = await press();
		const reply = await callback(replied, {
			type: InteractionResponseType.ChannelMessageWithSource,
			data: { content: 'Sure?', flags: MessageFlags.Ephemeral, components: [{ type: ComponentType.ActionRow, components: [button('yes')] }] },
		});
		expect(reply.body.resource.message).toMatchObject({
			type: MessageType.Reply,
			referenced_message: { id: replied.messageId },
			interaction_metadata: { interacted_message_id: replied.messageId },
		});
		expect((await call(sandbox, 'GET /channels/:channel/messages', { query: { limit: '100' } })).status).toBe(200);

		const refused = await press();
		const rows = Array.from({ length: 6 }, (_, i) => ({ type: ComponentType.ActionRow, components: [button(`b${i}`)] }));
		expect((await callback(refused, { type: InteractionResponseType.UpdateMessage, data: { components: rows } })).body).toMatchObject({
			code: RESTJSONErrorCodes.InvalidFormBodyOrContentType,
			errors: { data: { components: {} } },
		});
		const duplicated = { components: [{ type: ComponentType.ActionRow, components: [button('same'), button('same')] }] };
		expect((await call(sandbox, 'POST /channels/:channel/messages', { body: { content: 'dup', ...duplicated } })).status).toBe(400);
		expect((await call(sandbox, 'PATCH /webhooks/:app/:token/messages/@original', { params: hook, body: duplicated })).status).toBe(400);
	});
});

describe('errors outside any route', () => {
	it('unknown paths, wrong methods, other API versions and server errors have Discord’s error body', async () => {
		expect((await unrouted(sandbox, 'GET', '/v10/nothing/here')).status).toBe(404);
		expect((await unrouted(sandbox, 'DELETE', '/v10/gateway')).status).toBe(405);
		expect((await unrouted(sandbox, 'GET', '/v6/gateway')).status).toBe(404);
		await control(sandbox, 'POST', '/faults', { errorRate: 1 });
		try {
			const failed = await call(sandbox, 'GET /users/@me');
			expect([500, 502]).toContain(failed.status);
		} finally {
			await control(sandbox, 'POST', '/faults', { resetFaults: true });
		}
	});
});

describe('429s', () => {
	it('per route, shared, global and the invalid-request ban all send Discord’s rate-limit body', async () => {
		const limited = await startSandbox({
			members: 20,
			workers: 1,
			seed: 12,
			rateLimits: {
				global: { limit: 3, windowMs: 60_000 },
				invalidRequests: { limit: 10, windowMs: 60_000, banMs: 60_000 },
				routes: { memberGet: { limit: 1, windowMs: 60_000 } },
			},
		});
		try {
			const member = { params: { user: limited.ownerId } };
			expect((await call(limited, 'GET /guilds/:guild/members/:user', member)).status).toBe(200);
			const user = await call(limited, 'GET /guilds/:guild/members/:user', member);
			expect([user.status, user.headers.get('x-ratelimit-scope')]).toEqual([429, 'user']);

			await control(limited, 'POST', '/faults', { sharedWriteLimit: { limit: 1, windowMs: 60_000 } });
			const [target] = renamableMembers(limited);
			const rename = (token: string) => call(limited, 'PATCH /guilds/:guild/members/:user', { params: { user: target! }, body: { nick: 'Shared' }, token });
			expect((await rename(limited.bossToken)).status).toBe(200);
			const shared = await rename(limited.workerTokens[0]!);
			expect([shared.status, shared.headers.get('x-ratelimit-scope')]).toEqual([429, 'shared']);

			// Without a token the global limit (3 here) counts per address.
			const gateway: Answer[] = [];
			for (let i = 0; i < 4; i++) gateway.push(await call(limited, 'GET /gateway'));
			expect(gateway.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
			expect(gateway[3]!.headers.get('x-ratelimit-scope')).toBe('global');

			// 401s count as invalid requests too; at the ceiling (10 here) the address is banned.
			let banned: Answer | undefined;
			for (let i = 0; i < 10 && !banned; i++) {
				const answer = await call(limited, 'GET /gateway/bot', { token: null });
				if (answer.status !== 401) banned = answer;
			}
			expect(banned?.status).toBe(429);
			expect(banned?.body.message).toContain('blocked from accessing our API temporarily');
			expect((await unrouted(limited, 'GET', '/v10/nothing')).status).toBe(429);
		} finally {
			await limited.close();
		}
	});
});

describe('coverage', () => {
	// Runs last (tests in a file run in order): it checks what the tests above saw.
	it('every route answered at least one success and one error whose bodies were checked, and every rate-limit scope was seen', () => {
		const missing = restRoutes.flatMap((route) => {
			const seen = checked.get(keyOf(route));
			return (['success', 'error'] as const).filter((kind) => !seen?.has(kind)).map((kind) => `${keyOf(route)}: no ${kind} checked`);
		});
		expect(missing).toEqual([]);
		expect([...rateLimitScopes].sort()).toEqual(['global', 'shared', 'user']);
	});

	it('every deviation from the spec was needed by some body (a stale one must go)', () => {
		expect(specDeviations.map((deviation) => deviation.name).filter((name) => !excused.has(name))).toEqual([]);
	});
});
