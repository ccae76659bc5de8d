import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxContext } from '../SandboxContext.js';
import { ControlError } from './ControlError.js';
import { STREAMED, type ControlRoute } from './ControlRoute.js';
import { faultRoutes } from './faultRoutes.js';
import { interactionRoutes } from './interactionRoutes.js';
import { memberRoutes } from './memberRoutes.js';
import { observeRoutes } from './observeRoutes.js';
import { overwriteRoutes } from './overwriteRoutes.js';
import { raidRoutes } from './raidRoutes.js';
import { roleRoutes } from './roleRoutes.js';

/**
 * The sandbox's control API: JSON over HTTP under `/_sandbox`, without authentication. It lets
 * tests, the demo and the benchmark play the parts Discord's users play, and watch the bots.
 * Errors answer `{ "error": "<what went wrong>" }` with 400 or 404.
 *
 * **Slash commands**
 * - `POST /_sandbox/interactions` `{guildId, userId, command, options?, channelId?, applicationId?}`
 *   → `{id}`. `userId` runs `command` (the name as typed, with subcommands: `"massnick"`,
 *   `"jobs cancel"`). `options` is `{name: value}`, typed by the registered command (roles by id
 *   or name; an attachment as the file, `{filename, content | contentBase64, contentType?}`, put
 *   in `data.resolved.attachments` with a signed URL the sandbox serves under
 *   `/ephemeral-attachments/…`, as Discord's CDN does). Sends INTERACTION_CREATE to the
 *   application that registered it; 404 if none did.
 * - `GET /_sandbox/attachments` → `[{id, filename, size, contentType, url, downloads}]`: the files
 *   attached so far, and how often each was fetched.
 * - `GET /_sandbox/interactions/{id}` → `{id, type, command, customId, componentMessageId, userId,
 *   applicationId, guildId, channelId, createdAt, acknowledged, deferred, ephemeral,
 *   originalMessageId, responses: [{kind: 'callback'|'edit'|'followup'|'delete', at, type?, body,
 *   messageId?}], modal?, modalOf?}`. `type` is 2 for a command (`command` set), 3 for a button
 *   (`customId` and `componentMessageId` set) and 5 for a modal submitted (`customId` the modal's,
 *   `modalOf` the interaction that showed it); `originalMessageId` is what `@original` edits.
 *
 * **Buttons**
 * - `POST /_sandbox/interactions/component` `{guildId, userId, messageId, customId, channelId?}`
 *   → `{id}`. `userId` presses the button `customId` on a bot's message: INTERACTION_CREATE of
 *   type 3 (MESSAGE_COMPONENT) to the app that posted it, with the message. 400 when Discord's
 *   client could not send it: no component with that `custom_id`, not a button, disabled, a
 *   message no app posted (or whose app left), a bot pressing, a member without View Channel, or
 *   an ephemeral message shown to someone else; 404 for an unknown guild, member or message.
 *
 * **Modals**
 * - `POST /_sandbox/interactions/modal` `{interactionId, values: {customId: text}}` → `{id}`: the
 *   member who got the modal an app answered `interactionId` with (callback 9) fills it in and
 *   submits it: INTERACTION_CREATE of type 5 (MODAL_SUBMIT), with the button's message when a
 *   button opened it. 400 with no modal open (none shown, or submitted already), an input the
 *   modal lacks, a required one left empty, a text outside its lengths; 404 for an unknown
 *   interaction. `GET /_sandbox/interactions/{id}` shows the open modal as `modal`.
 *
 * **Members**
 * - `GET /_sandbox/guilds/{g}/members?limit=&after=` → `[{id, username, globalName, nick, roles,
 *   bot, joinedAt, decoration?, communicationDisabledUntil?}]` in id order; every member when
 *   there is no `limit` (streamed). `decoration` `{style, on: 'nick' | 'globalName', name, plain}`
 *   only for a member generated with a decorated name (the `decoratedNames` option): what it was
 *   generated with, and the readable name it was drawn over (`plain`, `null` when nothing
 *   readable was in it). `communicationDisabledUntil` only for a member timed out at some time
 *   (Discord's timestamp; an ended timeout keeps its time).
 * - `POST /_sandbox/guilds/{g}/members` `{count}` → `{ids}`: members join now (GUILD_MEMBER_ADD).
 * - `DELETE /_sandbox/guilds/{g}/members/{u}` → `{removed}`: the member leaves (GUILD_MEMBER_REMOVE).
 *   For one of our bots, the app is removed from the server: GUILD_DELETE to it, and REST answers
 *   it as a non-member from then on (`GET /guilds/{g}` 404/10004, the rest 403/50001); there is
 *   no way back short of a new sandbox.
 * - `PATCH /_sandbox/guilds/{g}/members/{u}` `{nick}` → the member: they set their own nickname
 *   (`null` clears; GUILD_MEMBER_UPDATE; an audit entry by the member, no rate limit).
 * - `PUT /_sandbox/guilds/{g}/owner` `{userId}` → `{ownerId}`: the owner gives the server to that
 *   member (not a bot, not themself): GUILD_UPDATE with the new `owner_id`, no audit entry.
 * - `POST /_sandbox/guilds/{g}/raid` `{count, realJoiners?, windowMs?, accountAgeMs?, names?,
 *   seed?}` → `{raidIds, realIds}`: a raid joins (GUILD_MEMBER_ADD each, in join order): `count`
 *   accounts made at most `accountAgeMs` (default 30 min) before joining, named from `names`
 *   (default `free nitro {n}`), among `realJoiners` (default 0) with accounts over a week old,
 *   all joining within the last `windowMs` (default 10 min). Seeded.
 * - `POST /_sandbox/guilds/{g}/join-burst` `{count, windowMs, accountAgeMs?, seed?}` → `{ids,
 *   joinsAt}`: `count` accounts made at most `accountAgeMs` (default a day) ago join over the next
 *   `windowMs` of the sandbox's clock, each at its own moment (GUILD_MEMBER_ADD then, `joined_at`
 *   then), in id order; the answer comes at once, with the plan. Seeded.
 *
 * **Roles and the channel's permissions** (what a server admin does in Server Settings)
 * - `POST /_sandbox/guilds/{g}/roles` `{name, permissions?, position?, mentionable?}` → the role:
 *   created at `position` (default 1, just above `@everyone`), the roles from there up move one
 *   higher (GUILD_ROLE_CREATE, GUILD_ROLE_UPDATE). `permissions` here and below: a decimal string,
 *   a number, or names (`["ManageNicknames"]`). `mentionable` (default false): whether anyone may
 *   ping it, not only members with Mention Everyone.
 * - `PATCH /_sandbox/guilds/{g}/roles/{r}` `{permissions?, position?, mentionable?}` → the role
 *   (GUILD_ROLE_UPDATE).
 * - `DELETE /_sandbox/guilds/{g}/roles/{r}` → `{deleted}`: the owner deletes the role; it leaves
 *   every member who held it, with GUILD_ROLE_DELETE and a ROLE_DELETE audit entry, and no
 *   GUILD_MEMBER_UPDATE (as on Discord). 400 for `@everyone` and managed roles.
 * - `PUT` / `DELETE /_sandbox/guilds/{g}/members/{u}/roles/{r}` → the member, with the role given
 *   or taken (GUILD_MEMBER_UPDATE).
 * - `PUT /_sandbox/channels/{c}/permissions/{id}` `{type: 0 role | 1 member, allow?, deny?}` and
 *   `DELETE` → the channel's `permission_overwrites` (CHANNEL_UPDATE). Message routes then answer
 *   as Discord does: no View Channel 403/50001, no Send Messages 403/50013.
 *
 * **Observing**
 * - `GET /_sandbox/channels/{c}/messages` → every message the bots posted there, oldest first,
 *   ephemeral interaction replies and follow-ups included (the sandbox has one channel, so this is
 *   every message it stored), as Discord's message objects (with `mentions`, `mention_roles` and
 *   `mention_everyone` computed as Discord does) plus `edits` (how often edited), `ephemeral`,
 *   `deleted`, `interactionId` and `everMentioned: {users, roles, everyone}` (whom it mentioned at
 *   any time, before later edits too).
 * - `GET /_sandbox/requests?after=SEQ&limit=` → `{requests: [{seq, at, botUserId, method, route,
 *   path, targetId, status, code, scope?}], lastSeq}`: REST requests after `SEQ`, oldest first
 *   (a ring buffer of `requestLogLimit`). `route` generalises ids: `/guilds/:id/members/:id`.
 * - `GET /_sandbox/stats` → `{apps: [{botUserId, name, role, requests, byStatus, rateLimited}],
 *   unauthenticated, totals, invalidRequests: {total, inWindow, byAddress}}`. Never tokens.
 * - `GET /_sandbox/audit-log?guildId=&limit=&before=&after=&user_id=&action_type=` → the guild's
 *   audit log, as `GET /guilds/{g}/audit-logs` returns it (limit up to 100): the bots' nickname
 *   changes (MEMBER_UPDATE, 24), the roles they gave or took (MEMBER_ROLE_UPDATE, 25, changes
 *   `[{key: '$add' | '$remove', new_value: [{id, name}]}]`) and roles deleted (ROLE_DELETE, 32).
 * - `GET /_sandbox/state` → `{guildId, name, ownerId, channelId, members, nicknamed, roles: [{id,
 *   name, position, permissions, managed, mentionable}], apps: [{id, name, role, membersIntent,
 *   revoked, commands}], auditLogEntries, timeScale, gateway}`.
 *
 * **Faults**
 * - `GET /_sandbox/faults` → the fault state.
 * - `POST /_sandbox/faults` with any of: `latencyMs` (added to every REST answer), `errorRate`
 *   (0..1: share of bot REST requests answered 500/502), `sharedWriteLimit: {limit, windowMs} |
 *   null` (guild-wide PATCH member limit across all tokens → 429 scope `shared`, time-scaled),
 *   `membersIntent: {appId, enabled}`, `revokeToken: {appId}` (REST 401, gateway close 4004),
 *   `closeGateway: {appId?, code?}`, `reconnect: {appId?}` (op 7), `resetFaults: true` (first; the
 *   members intent returns to the boss alone, or every app with `workerMembersIntent`)
 *   → the fault state, plus `closed`/`reconnected` counts.
 */
export function createControlRouter(
	ctx: SandboxContext,
): (request: IncomingMessage, response: ServerResponse, path: string, query: URLSearchParams) => Promise<void> {
	const routes: ControlRoute[] = [...interactionRoutes, ...memberRoutes, ...raidRoutes, ...roleRoutes, ...overwriteRoutes, ...observeRoutes, ...faultRoutes];
	const compiled = routes.map((route) => ({ route, segments: route.path.split('/').filter(Boolean) }));

	return async (request, response, path, query) => {
		const send = (status: number, body: unknown): void => {
			response.writeHead(status, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify(body));
		};
		try {
			const text = await readText(request);
			const segments = path
				.split('/')
				.filter(Boolean)
				.map((segment) => {
					try {
						return decodeURIComponent(segment);
					} catch {
						return segment;
					}
				});
			let pathMatched = false;
			for (const { route, segments: pattern } of compiled) {
				const params = match(pattern, segments);
				if (!params) continue;
				pathMatched = true;
				if (route.method !== request.method) continue;
				let body: Record<string, unknown> = {};
				if (text.trim() !== '') {
					try {
						body = JSON.parse(text) as Record<string, unknown>;
					} catch {
						throw new ControlError(400, 'the body is not valid JSON');
					}
					if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ControlError(400, 'the body must be a JSON object');
				}
				const result = await route.handle({ ctx, params, query, body, response });
				if (result !== STREAMED) send(200, result);
				return;
			}
			throw new ControlError(
				pathMatched ? 405 : 404,
				pathMatched ? `${request.method} is not supported on /_sandbox${path}` : `no control endpoint /_sandbox${path}`,
			);
		} catch (error) {
			if (response.headersSent) {
				response.destroy();
			} else if (error instanceof ControlError) {
				send(error.status, { error: error.message });
			} else {
				ctx.log.error({ err: error, path }, 'control request failed');
				send(500, { error: (error as Error).message });
			}
		}
	};
}

function match(pattern: readonly string[], segments: readonly string[]): Record<string, string> | null {
	if (pattern.length !== segments.length) return null;
	const params: Record<string, string> = {};
	for (let i = 0; i < pattern.length; i++) {
		if (pattern[i]!.startsWith(':')) params[pattern[i]!.slice(1)] = segments[i]!;
		else if (pattern[i] !== segments[i]) return null;
	}
	return params;
}

async function readText(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
	return Buffer.concat(chunks).toString('utf8');
}
