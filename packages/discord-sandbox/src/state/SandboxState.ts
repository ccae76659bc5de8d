import {
	AuditLogEvent,
	ChannelType,
	GatewayDispatchEvents,
	type ChannelFlags,
	type GuildMemberFlags,
	type RoleFlags,
	type GuildSystemChannelFlags,
	type UserFlags,
	GatewayIntentBits,
	GuildDefaultMessageNotifications,
	GuildExplicitContentFilter,
	GuildMFALevel,
	GuildNSFWLevel,
	GuildPremiumTier,
	GuildVerificationLevel,
	Locale,
	PermissionFlagsBits,
	type APIGuild,
	type APIGuildMember,
	type APIGuildTextChannel,
	type APIIncidentsData,
	type APIOverwrite,
	type APIRole,
	type APIUser,
} from 'discord-api-types/v10';
import type { ResolvedSandboxOptions } from '../SandboxOptions.js';
import { AuditLog } from './AuditLog.js';
import { BanStore } from './BanStore.js';
import { CommandStore } from './CommandStore.js';
import { DispatchBus } from './DispatchBus.js';
import { generateGuild, type GeneratedGuild } from './generateGuild.js';
import { InteractionStore } from './InteractionStore.js';
import type { MemberStore } from './MemberStore.js';
import { MessageStore } from './MessageStore.js';
import { computeChannelPermissions, computePermissions, highestRolePosition, TIMED_OUT_PERMISSIONS } from './permissions.js';
import { placeRole } from './placeRole.js';
import type { SandboxApp } from './SandboxApp.js';
import { SnowflakeGenerator } from './snowflake.js';
import { toDiscordTimestamp } from './toDiscordTimestamp.js';

/** Who changed a member (a nickname, a role), for the audit log. */
export interface MemberChange {
	/** Member index of whoever made the change; the audit entry's `user_id`. */
	actorIndex: number;
	reason: string | null;
}

/**
 * Everything the sandbox knows: the one generated guild, its members, our applications, their
 * commands, interactions, messages and the audit log, plus the bus that turns changes into
 * gateway events. REST handlers, the control API and the gateway host all work on this object.
 */
export class SandboxState {
	public readonly guild: Omit<GeneratedGuild, 'members' | 'apps'>;
	public readonly members: MemberStore;
	public readonly apps: readonly SandboxApp[];
	readonly #rolesById: Map<string, APIRole>;
	/** The channel's permission overwrites, by role or member id. */
	readonly #overwrites = new Map<string, APIOverwrite>();
	public readonly events = new DispatchBus();
	public readonly commands = new CommandStore();
	public readonly interactions = new InteractionStore();
	public readonly messages = new MessageStore();
	public readonly auditLog = new AuditLog();
	public readonly bans = new BanStore();
	/** Members' `communication_disabled_until` (Unix ms), by member slot; absent when never timed out or lifted. */
	public readonly timeouts = new Map<number, number>();
	/**
	 * The incident actions as last set (null until one is): read them through
	 * {@link incidentsData}, which lifts a pause whose time has passed.
	 */
	public incidents: APIIncidentsData | null = null;
	public readonly snowflakes: SnowflakeGenerator;
	public readonly now: () => number;
	readonly #appsById: Map<string, SandboxApp>;
	readonly #appsByToken: Map<string, SandboxApp>;

	public constructor(public readonly options: ResolvedSandboxOptions) {
		const { members, apps, ...guild } = generateGuild(options);
		this.guild = guild;
		this.members = members;
		this.apps = apps;
		this.#rolesById = new Map(guild.roles.map((role) => [role.id, role]));
		this.#appsById = new Map(apps.map((app) => [app.id, app]));
		this.#appsByToken = new Map(apps.map((app) => [app.token, app]));
		this.now = options.now;
		this.snowflakes = new SnowflakeGenerator(options.now);
		this.snowflakes.advancePast(members.idAt(members.length - 1));
	}

	public get guildId(): string {
		return this.guild.id;
	}

	public get rolesById(): ReadonlyMap<string, APIRole> {
		return this.#rolesById;
	}

	public appById(id: string): SandboxApp | undefined {
		return this.#appsById.get(id);
	}

	/** The application a token belongs to, unless the token was revoked. */
	public appByToken(token: string): SandboxApp | undefined {
		const app = this.#appsByToken.get(token);
		return app && !app.revoked ? app : undefined;
	}

	/** Member index for a user id in a guild, or -1 (unknown guild, not a snowflake, not a member). */
	public memberIndex(guildId: string, userId: string): number {
		if (guildId !== this.guild.id || !/^\d{1,20}$/.test(userId)) return -1;
		return this.members.indexOf(BigInt(userId));
	}

	public userJson(index: number): APIUser {
		const user: APIUser = {
			id: this.members.idAt(index).toString(),
			username: this.members.username(index),
			discriminator: '0',
			global_name: this.members.globalName(index),
			avatar: null,
			public_flags: 0 as UserFlags,
			// Discord sends `flags` on every user object, not only on `/users/@me`; for anyone but the
			// current user it holds the public flags.
			flags: 0 as UserFlags,
			avatar_decoration_data: null,
			collectibles: null,
			primary_guild: null,
		};
		if (this.members.isBot(index)) user.bot = true;
		return user;
	}

	/**
	 * The member as Discord's REST API returns it (GuildMemberResponse).
	 *
	 * @see {@link https://discord.com/developers/docs/resources/guild#guild-member-object}
	 */
	public memberJson(index: number): APIGuildMember {
		const until = this.timeouts.get(index);
		return {
			user: this.userJson(index),
			nick: this.members.nick(index),
			avatar: null,
			banner: null,
			roles: [...this.members.roles(index)],
			joined_at: this.members.joinedAt(index),
			premium_since: null,
			deaf: false,
			mute: false,
			flags: 0 as GuildMemberFlags,
			pending: false,
			communication_disabled_until: until === undefined ? null : toDiscordTimestamp(until),
		};
	}

	/**
	 * The guild's `incidents_data` as Discord shows it now: a pause whose time has passed reads as
	 * null (Discord sets it back to null once it runs out), null until an action was ever set.
	 */
	public incidentsData(): APIIncidentsData | null {
		if (!this.incidents) return null;
		const now = this.now();
		const inForce = (until: string | null): string | null => (until !== null && Date.parse(until) > now ? until : null);
		return { invites_disabled_until: inForce(this.incidents.invites_disabled_until), dms_disabled_until: inForce(this.incidents.dms_disabled_until) };
	}

	public isOwner(index: number): boolean {
		return this.members.idAt(index).toString() === this.guild.ownerId;
	}

	/**
	 * The member's guild-level permissions. While a timeout is in force, a member who is neither
	 * the owner nor an Administrator keeps only {@link TIMED_OUT_PERMISSIONS}.
	 */
	public permissions(index: number): bigint {
		const permissions = computePermissions(this.members.roles(index), this.rolesById, this.guild.id, this.isOwner(index));
		return this.#timedOut(index, permissions) ? permissions & TIMED_OUT_PERMISSIONS : permissions;
	}

	/** Whether a timeout of the member is in force and binds them: the owner and Administrators (every bit set) are exempt. */
	#timedOut(index: number, permissions: bigint): boolean {
		const until = this.timeouts.get(index);
		return until !== undefined && until > this.now() && (permissions & PermissionFlagsBits.Administrator) === 0n;
	}

	public highestPosition(index: number): number {
		return highestRolePosition(this.members.roles(index), this.rolesById);
	}

	/** The member's permissions in the guild's channel, its overwrites applied. */
	public channelPermissions(index: number): bigint {
		const member = { id: this.members.idAt(index).toString(), roleIds: this.members.roles(index) };
		const guild = this.permissions(index);
		const permissions = computeChannelPermissions(guild, member, this.guild.id, [...this.#overwrites.values()]);
		// No overwrite gives a timed-out member more.
		return this.#timedOut(index, guild) ? permissions & TIMED_OUT_PERMISSIONS : permissions;
	}

	/** Whether the application's bot is (still) a member of the guild. */
	public inGuild(app: SandboxApp): boolean {
		return !this.members.isRemoved(app.memberIndex);
	}

	/**
	 * The bot is kicked (or the app removed from the server): GUILD_DELETE to its own sessions,
	 * GUILD_MEMBER_REMOVE to everyone else's. From then on REST answers it as a non-member.
	 */
	public removeApp(app: SandboxApp): void {
		if (!this.inGuild(app)) return;
		this.events.emit({
			guildId: this.guild.id,
			t: GatewayDispatchEvents.GuildDelete,
			d: { id: this.guild.id },
			intent: GatewayIntentBits.Guilds,
			appId: app.id,
		});
		this.removeMember(app.memberIndex);
	}

	/**
	 * A new role, placed at `position` (Discord creates roles at 1, just above `@everyone`):
	 * GUILD_ROLE_CREATE, and GUILD_ROLE_UPDATE for every role it pushed up.
	 */
	public createRole(fields: { name: string; permissions: bigint; position: number; mentionable?: boolean }): APIRole {
		const role: APIRole = {
			id: this.snowflakes.next().toString(),
			name: fields.name,
			color: 0,
			colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
			hoist: false,
			icon: null,
			unicode_emoji: null,
			position: fields.position,
			permissions: fields.permissions.toString(),
			managed: false,
			mentionable: fields.mentionable ?? false,
			flags: 0 as RoleFlags,
		};
		const moved = placeRole(this.guild.roles, role, fields.position);
		this.#rolesById.set(role.id, role);
		this.#emitRole(GatewayDispatchEvents.GuildRoleCreate, role);
		for (const other of moved) this.#emitRole(GatewayDispatchEvents.GuildRoleUpdate, other);
		return role;
	}

	/** Changes a role's permissions, position and/or `mentionable`: GUILD_ROLE_UPDATE for it and every role moved. */
	public editRole(role: APIRole, changes: { permissions?: bigint; position?: number; mentionable?: boolean }): APIRole {
		if (changes.permissions !== undefined) role.permissions = changes.permissions.toString();
		if (changes.mentionable !== undefined) role.mentionable = changes.mentionable;
		const moved = changes.position === undefined || role.position === 0 ? [] : placeRole(this.guild.roles, role, changes.position);
		this.#emitRole(GatewayDispatchEvents.GuildRoleUpdate, role);
		for (const other of moved) this.#emitRole(GatewayDispatchEvents.GuildRoleUpdate, other);
		return role;
	}

	/**
	 * Deletes a role: gone from the guild and from every member who held it, then
	 * GUILD_ROLE_DELETE, and nothing else. Discord documents no other event for it, and sends no
	 * GUILD_MEMBER_UPDATE per holder (a library drops the id from its members itself: discord.js's
	 * `GuildMemberRoleManager#cache` skips roles the guild no longer has). The roles above keep
	 * their positions. With `change`, a ROLE_DELETE audit entry (32) by whoever deleted it.
	 *
	 * @see {@link https://discord.com/developers/docs/resources/guild#delete-guild-role}
	 * @see {@link https://discord.com/developers/docs/events/gateway-events#guild-role-delete}
	 */
	public deleteRole(role: APIRole, change: MemberChange | null): void {
		const at = this.guild.roles.indexOf(role);
		if (at !== -1) this.guild.roles.splice(at, 1);
		this.#rolesById.delete(role.id);
		this.members.removeRoleEverywhere(role.id);
		if (change)
			this.auditLog.add({
				id: this.snowflakes.next(),
				actionType: AuditLogEvent.RoleDelete,
				actorIndex: change.actorIndex,
				reason: change.reason,
				role: { ...role },
			});
		this.events.emit({
			guildId: this.guild.id,
			t: GatewayDispatchEvents.GuildRoleDelete,
			d: { guild_id: this.guild.id, role_id: role.id },
			intent: GatewayIntentBits.Guilds,
		});
	}

	/** Replaces a member's roles, and says so (see {@link #emitMemberUpdate}). */
	public setMemberRoles(index: number, roleIds: readonly string[]): void {
		this.members.setRoles(index, roleIds);
		this.#emitMemberUpdate(index);
	}

	/**
	 * Gives a member a role (`held` true) or takes it, as Add and Remove Guild Member Role do: a
	 * MEMBER_ROLE_UPDATE audit entry (`$add` or `$remove`, the role's id and name) by whoever made
	 * the change, then GUILD_MEMBER_UPDATE. A member who already has (or lacks) the role is left
	 * alone: no entry, no event. Returns whether anything changed.
	 *
	 * @see {@link https://discord.com/developers/docs/resources/audit-log#audit-log-change-object-audit-log-change-exceptions}
	 */
	public setMemberRole(index: number, role: APIRole, held: boolean, change: MemberChange): boolean {
		const roles = this.members.roles(index);
		if (roles.includes(role.id) === held) return false;
		this.auditLog.add({
			id: this.snowflakes.next(),
			actionType: AuditLogEvent.MemberRoleUpdate,
			actorIndex: change.actorIndex,
			targetIndex: index,
			reason: change.reason,
			change: held ? '$add' : '$remove',
			role: { id: role.id, name: role.name },
		});
		this.setMemberRoles(index, held ? [...roles, role.id] : roles.filter((id) => id !== role.id));
		return true;
	}

	/** Sets (or with `null`, deletes) the channel's overwrite for a role or member: CHANNEL_UPDATE. */
	public setChannelOverwrite(id: string, overwrite: APIOverwrite | null): void {
		if (overwrite) this.#overwrites.set(id, overwrite);
		else this.#overwrites.delete(id);
		this.events.emit({ guildId: this.guild.id, t: GatewayDispatchEvents.ChannelUpdate, d: this.channelJson(), intent: GatewayIntentBits.Guilds });
	}

	/** Says a member changed (GUILD_MEMBER_UPDATE, see {@link #emitMemberUpdate}), for changes made outside this class. */
	public memberUpdated(index: number): void {
		this.#emitMemberUpdate(index);
	}

	/** GUILD_MEMBER_UPDATE for a member as it is now, to the members intent (and to the member too, when it is a bot). */
	#emitMemberUpdate(index: number): void {
		this.events.emit({
			guildId: this.guild.id,
			t: GatewayDispatchEvents.GuildMemberUpdate,
			d: { guild_id: this.guild.id, ...this.memberJson(index) },
			intent: GatewayIntentBits.GuildMembers,
			...(this.members.isBot(index) ? { alsoToUserId: this.members.idAt(index).toString() } : {}),
		});
	}

	#emitRole(t: GatewayDispatchEvents.GuildRoleCreate | GatewayDispatchEvents.GuildRoleUpdate, role: APIRole): void {
		this.events.emit({ guildId: this.guild.id, t, d: { guild_id: this.guild.id, role: { ...role } }, intent: GatewayIntentBits.Guilds });
	}

	/**
	 * Changes a nickname and tells everyone who would hear about it on Discord: an audit entry
	 * (when `change` names who did it) and GUILD_MEMBER_UPDATE. A nickname equal to the username
	 * is not stored, as on Discord. Returns whether anything changed.
	 */
	public setNick(index: number, nick: string | null, change: MemberChange | null): boolean {
		const stored = nick === null || nick === '' || nick === this.members.username(index) ? null : nick;
		const previous = this.members.nick(index);
		if (previous === stored) return false;
		this.members.setNick(index, stored);
		if (change) {
			this.auditLog.add({
				id: this.snowflakes.next(),
				actionType: AuditLogEvent.MemberUpdate,
				actorIndex: change.actorIndex,
				targetIndex: index,
				reason: change.reason,
				oldNick: previous,
				newNick: stored,
			});
		}
		this.#emitMemberUpdate(index);
		return true;
	}

	/** New members join now (ids from the clock, so the store stays sorted); GUILD_MEMBER_ADD for each. */
	public addMembers(count: number): string[] {
		const ids: string[] = [];
		const memberRole = this.guild.roleIds.Member;
		for (let n = 0; n < count; n++) {
			const index = this.members.push(this.snowflakes.next(), [memberRole]);
			ids.push(this.members.idAt(index).toString());
			this.events.emit({
				guildId: this.guild.id,
				t: GatewayDispatchEvents.GuildMemberAdd,
				d: { guild_id: this.guild.id, ...this.memberJson(index) },
				intent: GatewayIntentBits.GuildMembers,
			});
		}
		return ids;
	}

	/** The member leaves; GUILD_MEMBER_REMOVE. */
	public removeMember(index: number): void {
		const user = this.userJson(index);
		this.members.remove(index);
		this.events.emit({
			guildId: this.guild.id,
			t: GatewayDispatchEvents.GuildMemberRemove,
			d: { guild_id: this.guild.id, user },
			intent: GatewayIntentBits.GuildMembers,
		});
	}

	public channelJson(): APIGuildTextChannel<ChannelType.GuildText> {
		const last = this.messages.all(this.guild.channel.id).at(-1);
		return {
			id: this.guild.channel.id,
			type: ChannelType.GuildText,
			guild_id: this.guild.id,
			name: this.guild.channel.name,
			position: 0,
			permission_overwrites: [...this.#overwrites.values()],
			nsfw: false,
			parent_id: null,
			topic: null,
			last_message_id: last?.message.id ?? null,
			rate_limit_per_user: 0,
			flags: 0 as ChannelFlags,
		};
	}

	/**
	 * The guild object (GET /guilds/{id}); with `withCounts`, the approximate counts that
	 * `?with_counts=true` adds. Besides APIGuild's fields it has three Discord still sends and
	 * its spec requires (GuildWithCountsResponse): `region` (always `"deprecated"` since voice
	 * regions moved to channels), `home_header` and the old `nsfw` flag.
	 */
	public guildJson(withCounts: boolean): APIGuild & { region: string; home_header: string | null; nsfw: boolean } {
		return {
			id: this.guild.id,
			name: this.guild.name,
			icon: null,
			icon_hash: null,
			splash: null,
			discovery_splash: null,
			owner_id: this.guild.ownerId,
			region: 'deprecated',
			home_header: null,
			afk_channel_id: null,
			afk_timeout: 300,
			widget_enabled: false,
			widget_channel_id: null,
			verification_level: GuildVerificationLevel.Low,
			default_message_notifications: GuildDefaultMessageNotifications.OnlyMentions,
			explicit_content_filter: GuildExplicitContentFilter.AllMembers,
			roles: [...this.guild.roles],
			emojis: [],
			features: [],
			mfa_level: GuildMFALevel.None,
			application_id: null,
			system_channel_id: this.guild.channel.id,
			system_channel_flags: 0 as GuildSystemChannelFlags,
			rules_channel_id: null,
			max_presences: null,
			max_members: 25_000_000,
			vanity_url_code: null,
			description: null,
			banner: null,
			premium_tier: GuildPremiumTier.None,
			premium_subscription_count: 0,
			preferred_locale: Locale.EnglishUS,
			public_updates_channel_id: null,
			max_video_channel_users: 25,
			max_stage_video_channel_users: 50,
			nsfw: false,
			nsfw_level: GuildNSFWLevel.Default,
			stickers: [],
			premium_progress_bar_enabled: false,
			hub_type: null,
			safety_alerts_channel_id: null,
			incidents_data: this.incidentsData(),
			...(withCounts ? { approximate_member_count: this.members.size, approximate_presence_count: 0 } : {}),
		};
	}
}
