import { REST } from '@discordjs/rest';
import { AuditLogEvent, RESTJSONErrorCodes, Routes, type APIAuditLog, type APIGuildMember } from 'discord-api-types/v10';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { apiFailure } from './support/apiFailure.js';

let sandbox: Sandbox;
let rest: REST;

async function members(query: Record<string, string>): Promise<APIGuildMember[]> {
	return (await rest.get(Routes.guildMembers(sandbox.guildId), { query: new URLSearchParams(query) })) as APIGuildMember[];
}

/** An ordinary member (no roles above the bots', not the owner, not a bot). */
function ordinaryMember(list: APIGuildMember[], skip = 0): APIGuildMember {
	const roles = sandbox.state.guild.roleIds;
	const found = list.filter(
		(member) => !member.user.bot && member.user.id !== sandbox.ownerId && !member.roles.some((role) => role === roles.Moderator || role === roles.Admin),
	);
	return found[skip]!;
}

beforeAll(async () => {
	// Windows of 10 s become 0.2 s: the real limits apply, without the wait.
	sandbox = await startSandbox({ members: 2500, workers: 2, seed: 3, timeScale: 50 });
	rest = new REST({ api: sandbox.apiUrl }).setToken(sandbox.bossToken);
});
afterAll(async () => {
	await sandbox.close();
});

describe('GET /guilds/{id}/members', () => {
	it('pages through every member in ascending id order with limit and after', async () => {
		const seen: string[] = [];
		let after = '0';
		for (;;) {
			const page = await members({ limit: '1000', after });
			seen.push(...page.map((member) => member.user.id));
			if (page.length < 1000) break;
			after = page.at(-1)!.user.id;
		}
		expect(seen).toHaveLength(sandbox.state.members.size);
		const sorted = [...seen].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
		expect(seen).toEqual(sorted);
		expect(new Set(seen).size).toBe(seen.length);
	});

	it('returns one member by default and refuses limits outside 1..1000', async () => {
		expect(await members({})).toHaveLength(1);
		const tooMany = await apiFailure(members({ limit: '1001' }));
		expect(tooMany.status).toBe(400);
		expect(tooMany.code).toBe(RESTJSONErrorCodes.InvalidFormBodyOrContentType);
		expect((await apiFailure(members({ limit: '0' }))).status).toBe(400);
	});

	it('starts strictly after the given id', async () => {
		const [first, second] = await members({ limit: '2' });
		const [next] = await members({ limit: '1', after: first!.user.id });
		expect(next!.user.id).toBe(second!.user.id);
	});

	it('serves members with the fields GuildMemberResponse requires', async () => {
		const [member] = await members({ limit: '1' });
		for (const key of [
			'avatar',
			'banner',
			'communication_disabled_until',
			'flags',
			'joined_at',
			'nick',
			'pending',
			'premium_since',
			'roles',
			'user',
			'mute',
			'deaf',
		]) {
			expect(member).toHaveProperty(key);
		}
		expect(member!.user.id).toMatch(/^\d{18,19}$/);
		expect(member!.user.discriminator).toBe('0');
	});

	it('answers 403/50001 Missing Access when the app has no members intent, whatever it identified with', async () => {
		await fetch(`${sandbox.controlUrl}/faults`, { method: 'POST', body: JSON.stringify({ membersIntent: { appId: sandbox.bossId, enabled: false } }) });
		try {
			const error = await apiFailure(members({ limit: '10' }));
			expect(error.status).toBe(403);
			expect(error.code).toBe(RESTJSONErrorCodes.MissingAccess);
		} finally {
			await fetch(`${sandbox.controlUrl}/faults`, { method: 'POST', body: JSON.stringify({ membersIntent: { appId: sandbox.bossId, enabled: true } }) });
		}
		expect(await members({ limit: '1' })).toHaveLength(1);
	});
});

describe('GET /guilds/{id}/members/{user}', () => {
	it('returns the member, and 404/10007 for someone who is not one', async () => {
		const [member] = await members({ limit: '1', after: '0' });
		const fetched = (await rest.get(Routes.guildMember(sandbox.guildId, member!.user.id))) as APIGuildMember;
		expect(fetched.user.username).toBe(member!.user.username);
		const error = await apiFailure(rest.get(Routes.guildMember(sandbox.guildId, '100000000000000000')));
		expect(error.status).toBe(404);
		expect(error.code).toBe(RESTJSONErrorCodes.UnknownMember);
	});

	it('answers 404/10004 for an unknown guild', async () => {
		const error = await apiFailure(rest.get(Routes.guildMember('100000000000000001', sandbox.ownerId)));
		expect(error.status).toBe(404);
		expect(error.code).toBe(RESTJSONErrorCodes.UnknownGuild);
	});
});

describe('PATCH /guilds/{id}/members/{user}', () => {
	it('renames, answers 200 with the member, and records the decoded reason in the audit log', async () => {
		const target = ordinaryMember(await members({ limit: '200' }));
		const renamed = (await rest.patch(Routes.guildMember(sandbox.guildId, target.user.id), {
			body: { nick: '🎃 Pumpkin' },
			reason: 'massnick job 7: "🎃 {name}" by café',
		})) as APIGuildMember;
		expect(renamed.nick).toBe('🎃 Pumpkin');
		expect(renamed.user.id).toBe(target.user.id);

		const log = (await rest.get(Routes.guildAuditLog(sandbox.guildId), {
			query: new URLSearchParams({ user_id: sandbox.bossId, action_type: String(AuditLogEvent.MemberUpdate), limit: '1' }),
		})) as APIAuditLog;
		const [entry] = log.audit_log_entries;
		expect(entry).toMatchObject({
			user_id: sandbox.bossId,
			target_id: target.user.id,
			action_type: AuditLogEvent.MemberUpdate,
			reason: 'massnick job 7: "🎃 {name}" by café',
		});
		expect(entry!.changes).toEqual([{ key: 'nick', ...(target.nick === null ? {} : { old_value: target.nick }), new_value: '🎃 Pumpkin' }]);
		expect(log.users.map((user) => user.id)).toContain(target.user.id);
	});

	it('clears the nickname with "" and with null (nick: null in the answer)', async () => {
		const target = ordinaryMember(await members({ limit: '200' }), 1);
		await rest.patch(Routes.guildMember(sandbox.guildId, target.user.id), { body: { nick: 'Temporary' } });
		expect(((await rest.patch(Routes.guildMember(sandbox.guildId, target.user.id), { body: { nick: '' } })) as APIGuildMember).nick).toBeNull();
		await rest.patch(Routes.guildMember(sandbox.guildId, target.user.id), { body: { nick: 'Temporary' } });
		expect(((await rest.patch(Routes.guildMember(sandbox.guildId, target.user.id), { body: { nick: null } })) as APIGuildMember).nick).toBeNull();
	});

	it('does not store a nickname equal to the username', async () => {
		const target = ordinaryMember(await members({ limit: '200' }), 2);
		const answer = (await rest.patch(Routes.guildMember(sandbox.guildId, target.user.id), { body: { nick: target.user.username } })) as APIGuildMember;
		expect(answer.nick).toBeNull();
	});

	it('accepts 32 code points and refuses 33 with 400/50035 nick[BASE_TYPE_MAX_LENGTH]', async () => {
		const target = ordinaryMember(await members({ limit: '200' }), 3);
		const thirtyTwo = '🎃'.repeat(32);
		expect(((await rest.patch(Routes.guildMember(sandbox.guildId, target.user.id), { body: { nick: thirtyTwo } })) as APIGuildMember).nick).toBe(thirtyTwo);
		const error = await apiFailure(rest.patch(Routes.guildMember(sandbox.guildId, target.user.id), { body: { nick: 'x'.repeat(33) } }));
		expect(error.status).toBe(400);
		expect(error.code).toBe(RESTJSONErrorCodes.InvalidFormBodyOrContentType);
		expect(error.message).toBe('Invalid Form Body\nnick[BASE_TYPE_MAX_LENGTH]: Must be 32 or fewer in length.');
	});

	it('refuses to rename the owner with 403/50013', async () => {
		const error = await apiFailure(rest.patch(Routes.guildMember(sandbox.guildId, sandbox.ownerId), { body: { nick: 'Owner?' } }));
		expect(error.status).toBe(403);
		expect(error.code).toBe(RESTJSONErrorCodes.MissingPermissions);
	});

	it('refuses to rename a moderator, whose role is above the bots', async () => {
		const { state } = sandbox;
		const moderator = [...state.members.indices()].find((index) => state.members.roles(index).includes(state.guild.roleIds.Moderator))!;
		const error = await apiFailure(rest.patch(Routes.guildMember(sandbox.guildId, state.members.idAt(moderator).toString()), { body: { nick: 'Mod?' } }));
		expect(error.status).toBe(403);
		expect(error.code).toBe(RESTJSONErrorCodes.MissingPermissions);
	});

	it('refuses to rename another of our bots, whose highest role equals the bot’s', async () => {
		const worker = sandbox.workerIds[0]!;
		const error = await apiFailure(rest.patch(Routes.guildMember(sandbox.guildId, worker), { body: { nick: 'Worker?' } }));
		expect(error.code).toBe(RESTJSONErrorCodes.MissingPermissions);
	});

	it('answers 404/10007 for a user who is not a member', async () => {
		const error = await apiFailure(rest.patch(Routes.guildMember(sandbox.guildId, '100000000000000000'), { body: { nick: 'Ghost' } }));
		expect(error.status).toBe(404);
		expect(error.code).toBe(RESTJSONErrorCodes.UnknownMember);
	});

	it('answers 401 with Discord’s body for a bad token', async () => {
		const response = await fetch(`${sandbox.apiUrl}/v10${Routes.guildMember(sandbox.guildId, sandbox.ownerId)}`, {
			method: 'PATCH',
			headers: { Authorization: 'Bot not-a-token', 'Content-Type': 'application/json' },
			body: JSON.stringify({ nick: 'x' }),
		});
		expect(response.status).toBe(401);
		expect(await response.text()).toBe('{"message": "401: Unauthorized", "code": 0}');
		const bad = new REST({ api: sandbox.apiUrl }).setToken('not-a-token');
		const error = await apiFailure(bad.get(Routes.user('@me')));
		expect(error.status).toBe(401);
	});

	it('answers 400/50109 for malformed JSON', async () => {
		const target = ordinaryMember(await members({ limit: '200' }), 4);
		const response = await fetch(`${sandbox.apiUrl}/v10${Routes.guildMember(sandbox.guildId, target.user.id)}`, {
			method: 'PATCH',
			headers: { Authorization: `Bot ${sandbox.bossToken}`, 'Content-Type': 'application/json' },
			body: '{"nick": ',
		});
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ message: 'The request body contains invalid JSON.', code: RESTJSONErrorCodes.RequestBodyContainsInvalidJSON });
	});
});

describe('PATCH /guilds/{id}/members/@me', () => {
	it('changes the bot’s own nickname and records it', async () => {
		const me = (await rest.patch(Routes.guildMember(sandbox.guildId, '@me'), { body: { nick: 'Boss' }, reason: 'self' })) as APIGuildMember;
		expect(me.nick).toBe('Boss');
		expect(me.user.id).toBe(sandbox.bossId);
	});
});

describe('routing', () => {
	it('answers unknown routes with 404 and wrong methods with 405, in Discord’s words', async () => {
		const unknown = await fetch(`${sandbox.apiUrl}/v10/nothing/here`, { headers: { Authorization: `Bot ${sandbox.bossToken}` } });
		expect(unknown.status).toBe(404);
		expect(await unknown.json()).toEqual({ message: '404: Not Found', code: 0 });
		const wrong = await fetch(`${sandbox.apiUrl}/v10/guilds/${sandbox.guildId}/members`, {
			method: 'DELETE',
			headers: { Authorization: `Bot ${sandbox.bossToken}` },
		});
		expect(wrong.status).toBe(405);
	});

	it('serves /api without a version as v10, and /gateway/bot with the local gateway URL', async () => {
		const response = await fetch(`${sandbox.apiUrl}/gateway/bot`, { headers: { Authorization: `Bot ${sandbox.bossToken}` } });
		expect(await response.json()).toEqual({
			url: sandbox.gatewayUrl,
			shards: 1,
			session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
		});
	});

	it('answers GET /guilds/{id}?with_counts=true with approximate counts', async () => {
		const guild = (await rest.get(Routes.guild(sandbox.guildId), { query: new URLSearchParams({ with_counts: 'true' }) })) as {
			approximate_member_count: number;
			roles: unknown[];
		};
		expect(guild.approximate_member_count).toBe(sandbox.state.members.size);
		expect(guild.roles.length).toBeGreaterThanOrEqual(5);
	});
});
