import { PermissionFlagsBits, type APIRole, type RoleFlags } from 'discord-api-types/v10';
import { usualOtherBots } from '../SandboxOptions.js';
import { MemberStore } from './MemberStore.js';
import { EVERYONE_PERMISSIONS } from './permissions.js';
import { Random } from './random.js';
import type { SandboxApp } from './SandboxApp.js';
import { DISCORD_EPOCH, makeSnowflake } from './snowflake.js';

/**
 * Generated accounts were created between Discord's launch and this fixed moment. It is a
 * constant, not "now", so that one seed gives the same ids on every run; members that join
 * while the sandbox runs get ids from the real clock, which are always later.
 */
export const GENERATION_END = Date.UTC(2025, 5, 1);
// From here on snowflakes have 18 digits (ids of spring 2015 have 17, which real guilds rarely show).
const GENERATION_START = Date.UTC(2015, 9, 4);

/**
 * The names of the roles in the generated ladder, lowest first. `MEE6` is the integration role
 * of the bot of that name (managed: nobody can give or take it); `Event`, just below our bots'
 * role and held by nobody, is there for a mass role job to hand out.
 */
export const ROLE_NAMES = ['@everyone', 'Member', 'Level 10', 'Staff', 'Bots', 'MEE6', 'Event', 'Massnick', 'Moderator', 'Admin'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

/**
 * The roles whose ids are drawn with the guild's, in this order. The others' ids are drawn once
 * every member exists, so that adding a role to the ladder changes no id, name or nickname that
 * a seed gives.
 */
const FIRST_ROLES = ['@everyone', 'Member', 'Level 10', 'Staff', 'Bots', 'Massnick', 'Moderator', 'Admin'] as const satisfies readonly RoleName[];
type FirstRoleName = (typeof FIRST_ROLES)[number];

/** The bot that has an integration role (the first of the other bots, in every guild). */
const INTEGRATION_BOT = 'MEE6' satisfies RoleName;

const ROLE_PERMISSIONS: Record<RoleName, bigint> = {
	'@everyone': EVERYONE_PERMISSIONS,
	Member: 0n,
	'Level 10': 0n,
	Staff: PermissionFlagsBits.ManageMessages,
	Bots: PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks,
	MEE6: PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks | PermissionFlagsBits.ManageMessages,
	Event: 0n,
	// VIEW_AUDIT_LOG lets the bots verify and undo their own renames from the audit log; MANAGE_ROLES
	// is what a mass role job needs, granted as an operator would.
	Massnick: PermissionFlagsBits.ManageNicknames | PermissionFlagsBits.ChangeNickname | PermissionFlagsBits.ViewAuditLog | PermissionFlagsBits.ManageRoles,
	Moderator:
		PermissionFlagsBits.ManageNicknames |
		PermissionFlagsBits.KickMembers |
		PermissionFlagsBits.BanMembers |
		PermissionFlagsBits.ManageMessages |
		PermissionFlagsBits.ModerateMembers |
		PermissionFlagsBits.ViewAuditLog,
	Admin: PermissionFlagsBits.Administrator,
};

const ROLE_COLORS: Record<RoleName, number> = {
	'@everyone': 0,
	Member: 0x95a5a6,
	'Level 10': 0x3498db,
	Staff: 0x1abc9c,
	Bots: 0x7289da,
	MEE6: 0x000000,
	Event: 0xf1c40f,
	Massnick: 0xe67e22,
	Moderator: 0x2ecc71,
	Admin: 0xe74c3c,
};

const OTHER_BOTS = [INTEGRATION_BOT, 'Dyno', 'Carl-bot', 'Ticket Tool', 'Statbot', 'Dank Memer', 'Pancake', 'YAGPDB.xyz'] as const;
const GUILD_NAMES = ['Starfall', 'Cozy Corner', 'The Lounge', 'Pixel Plaza', 'Night Owls', 'Campfire'] as const;

/** What the sandbox's guild looks like when it starts. */
export interface GeneratedGuild {
	id: string;
	name: string;
	ownerId: string;
	/** Ordered by position, `@everyone` first; `roleIds[name]` finds one by name. */
	roles: APIRole[];
	roleIds: Record<RoleName, string>;
	channel: { id: string; name: string };
	apps: SandboxApp[];
	members: MemberStore;
}

export interface GenerateGuildOptions {
	members: number;
	workers: number;
	/** Whether the workers' applications have the Server Members intent (the boss's always has). Default false. */
	workerMembersIntent?: boolean;
	seed: number;
	/** The share (0..1) of generated members whose shown name is decorated (`𝐁𝐨𝐛`, `!!! bob`, `★☆★`). Default 0. */
	decoratedNames?: number;
	/**
	 * Bots of other applications among the members (MEE6, Dyno...), at least 1. Default 4 in a
	 * guild of 1000 members or more, else 1. Those past the default each hold a managed role of
	 * their own, as a bot invited with permissions does.
	 */
	otherBots?: number | undefined;
}

/**
 * Builds the guild deterministically from the seed: the same seed gives the same ids, names,
 * roles and tokens. With `decoratedNames`, that share of the generated members shows a decorated
 * name instead (their nickname if they have one, else their display name; see decoratedNames.ts);
 * the seed picks them, so every other member, and every id, is the same as without.
 *
 * Account creation times are spread at random over 2015–2025 (sorted uniform samples, made in
 * one pass from exponential spacings, so no sort is needed even for ten million members): the
 * bot splits work by `(id >> 22) % N`, which a regular step would make meaningless.
 */
export function generateGuild({ members, workers, workerMembersIntent = false, seed, decoratedNames = 0, otherBots }: GenerateGuildOptions): GeneratedGuild {
	const random = new Random(seed);
	const guildCreated = GENERATION_START + random.int(2 * 365 * 86_400_000);
	let nextGuildObject = 0;
	const guildObjectId = (): string => makeSnowflake(guildCreated + 1000 * nextGuildObject++, 0, 0, random.int(4096)).toString();
	const id = guildObjectId();

	const roleIds = Object.fromEntries(FIRST_ROLES.map((name, n) => [name, n === 0 ? id : guildObjectId()])) as Record<FirstRoleName, string>;
	const channel = { id: guildObjectId(), name: 'general' };

	// Who is special is decided by index before the ids exist; the rest are ordinary members.
	const appCount = 1 + workers;
	const total = members + appCount;
	const taken = new Set<number>();
	const takeIndices = (count: number): number[] => {
		if (count > total - taken.size) throw new RangeError(`${count} special members do not fit among ${total - taken.size} left`);
		const result: number[] = [];
		while (result.length < count) {
			const index = random.int(total);
			if (!taken.has(index)) {
				taken.add(index);
				result.push(index);
			}
		}
		return result;
	};
	const large = members >= 1000;
	const [ownerIndex] = takeIndices(1) as [number];
	const adminIndices = takeIndices(large ? 3 : 1);
	const moderatorIndices = takeIndices(large ? Math.min(40, Math.max(4, Math.round(members / 2000))) : 2);
	const usual = usualOtherBots(members);
	const otherBotIndices = takeIndices(otherBots ?? usual);
	const appIndices = takeIndices(appCount);

	const special = new Map<number, readonly string[]>();
	special.set(ownerIndex, [roleIds.Admin]);
	for (const index of adminIndices) special.set(index, [roleIds.Admin, roleIds.Member]);
	for (const index of moderatorIndices) special.set(index, [roleIds.Moderator, roleIds.Member]);
	for (const index of otherBotIndices) special.set(index, [roleIds.Bots]);
	for (const index of appIndices) special.set(index, [roleIds.Massnick]);

	// Who is decorated is drawn from the seed and the index alone, so no id, name or role above changes with it.
	const store = new MemberStore(seed, GENERATION_END, total, { decoratedShare: decoratedNames });
	const ordinary = [[], [roleIds.Member], [roleIds.Member, roleIds['Level 10']], [roleIds.Member, roleIds.Staff]].map((set) => store.internRoleSet(set));
	const specialSets = new Map([...special].map(([index, set]) => [index, store.internRoleSet(set)]));
	fillIds(store, total, seed, (index) => {
		const set = specialSets.get(index);
		if (set !== undefined) return [set, random.next() < 0.2 && !otherBotIndices.includes(index) && !appIndices.includes(index)];
		const roll = random.next();
		const roleSet = roll < 0.3 ? ordinary[0]! : roll < 0.75 ? ordinary[1]! : roll < 0.99 ? ordinary[2]! : ordinary[3]!;
		return [roleSet, random.next() < 0.2];
	});
	store.finishGeneration();

	otherBotIndices.forEach((index, n) => store.setCustomUser(index, { username: otherBotName(n), globalName: null }, true));
	const apps = appIndices.map((memberIndex, n): SandboxApp => {
		const appId = store.idAt(memberIndex).toString();
		const name = n === 0 ? 'Massnick Boss' : `Massnick Worker ${n}`;
		store.setCustomUser(memberIndex, { username: name, globalName: null }, true);
		return {
			id: appId,
			name,
			role: n === 0 ? 'boss' : 'worker',
			token: makeToken(appId, random),
			memberIndex,
			membersIntent: n === 0 || workerMembersIntent,
			revoked: false,
		};
	});

	const allRoleIds: Record<RoleName, string> = { ...roleIds, Event: guildObjectId(), MEE6: guildObjectId() };
	const integrationBot = otherBotIndices[0]!;
	store.setRoles(integrationBot, [...store.roles(integrationBot), allRoleIds.MEE6]);
	// Discord creates a bot's managed role at position 1, just above @everyone, so the roles of the
	// bots past the usual few sit below the ladder. Their ids come last: the default guild keeps its own.
	const botRoles = otherBotIndices.slice(usual).map((index, n): APIRole => {
		const role = botRole(guildObjectId(), otherBotName(usual + n), n + 1, store.idAt(index).toString());
		store.setRoles(index, [...store.roles(index), role.id]);
		return role;
	});
	const ladder = ROLE_NAMES.map(
		(name, n): APIRole => ({
			id: allRoleIds[name],
			name,
			color: ROLE_COLORS[name],
			colors: { primary_color: ROLE_COLORS[name], secondary_color: null, tertiary_color: null },
			hoist: name === 'Admin' || name === 'Moderator' || name === 'Bots',
			icon: null,
			unicode_emoji: null,
			position: n === 0 ? 0 : n + botRoles.length,
			permissions: ROLE_PERMISSIONS[name].toString(),
			managed: name === INTEGRATION_BOT,
			mentionable: name === 'Staff' || name === 'Moderator',
			...(name === INTEGRATION_BOT ? { tags: { bot_id: store.idAt(integrationBot).toString() } } : {}),
			flags: 0 as RoleFlags,
		}),
	);
	const roles = [ladder[0]!, ...botRoles, ...ladder.slice(1)];

	return {
		id,
		name: GUILD_NAMES[seed % GUILD_NAMES.length]!,
		ownerId: store.idAt(ownerIndex).toString(),
		roles,
		roleIds: allRoleIds,
		channel,
		apps,
		members: store,
	};
}

/** The `n`th other bot's name: MEE6, Dyno... and, past the list, `MEE6 2`, `Dyno 2`... */
function otherBotName(n: number): string {
	const name = OTHER_BOTS[n % OTHER_BOTS.length]!;
	return n < OTHER_BOTS.length ? name : `${name} ${Math.floor(n / OTHER_BOTS.length) + 1}`;
}

/** A bot's managed role, named after it and tagged with its id, as Discord makes one at invite. */
function botRole(id: string, name: string, position: number, botId: string): APIRole {
	const permissions = PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks;
	return {
		id,
		name,
		color: 0,
		colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
		hoist: false,
		icon: null,
		unicode_emoji: null,
		position,
		permissions: permissions.toString(),
		managed: true,
		mentionable: false,
		tags: { bot_id: botId },
		flags: 0 as RoleFlags,
	};
}

/**
 * Appends `total` members with ascending random snowflakes. Creation times are uniform order
 * statistics: the running sum of exponential spacings, divided by their total. The spacings are
 * drawn twice from identically seeded generators (once to learn the total), which costs a second
 * pass instead of a temporary array of ten million floats.
 */
function fillIds(store: MemberStore, total: number, seed: number, describe: (index: number) => [roleSet: number, nick: boolean]): void {
	const spacing = (random: Random): number => -Math.log(1 - random.next());
	const first = new Random(seed ^ 0x51ed);
	let sum = 0;
	for (let i = 0; i <= total; i++) sum += spacing(first);

	const second = new Random(seed ^ 0x51ed);
	const lowBits = new Random(seed ^ 0x10b5);
	const span = GENERATION_END - GENERATION_START;
	let running = 0;
	let previousHigh = -1;
	let previousLow = 0;
	for (let index = 0; index < total; index++) {
		running += spacing(second);
		const ms = Math.floor(GENERATION_START - DISCORD_EPOCH + (running / sum) * span);
		let high = Math.floor(ms / 1024);
		// 22 low bits: 5 worker, 5 process, 12 increment, all random.
		let low = ((ms % 1024) * 4_194_304 + (lowBits.nextUint32() & 0x3fffff)) >>> 0;
		if (high < previousHigh || (high === previousHigh && low <= previousLow)) {
			high = previousHigh;
			low = (previousLow + 1) >>> 0;
			if (low === 0) high++;
		}
		const [roleSet, nick] = describe(index);
		store.pushWords(high, low, roleSet, nick);
		previousHigh = high;
		previousLow = low;
	}
}

/**
 * A token shaped like Discord's (base64 of the bot id, a timestamp part, an HMAC part), fake but
 * deterministic per seed.
 */
function makeToken(appId: string, random: Random): string {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
	const part = (length: number): string => Array.from({ length }, () => alphabet[random.int(64)]).join('');
	return `${Buffer.from(appId).toString('base64').replace(/=+$/, '')}.${part(6)}.${part(38)}`;
}
