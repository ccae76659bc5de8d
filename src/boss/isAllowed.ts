import { type BaseInteraction, PermissionFlagsBits } from 'discord.js';
import { allowListCovers, orAllowed, type PermissionSettings } from '../config/index.js';
import { listInWords, permissionNames } from '../discord/permissionNames.js';

/**
 * Whether this member may run a command, or press a button of what a command started, checked on
 * every use: Discord hides each command from members without its permission (Manage Nicknames;
 * Manage Roles for /massrole; Manage Guild for /lockdown), but a server admin can change who sees them, and anyone who can
 * see a channel message can press its buttons. The operator's allow-lists stand in only for
 * Manage Nicknames and Manage Roles (`ALLOW_LIST_GRANTS`): a timeout, a kick, a ban or a lockdown
 * needs the permission held by hand.
 */
export function isAllowed(
	interaction: Pick<BaseInteraction, 'user' | 'member' | 'memberPermissions'>,
	rules: PermissionSettings,
	permission: bigint = PermissionFlagsBits.ManageNicknames,
): boolean {
	if (allowListCovers(permission) && onAllowList(interaction, rules)) return true;
	return rules.requireManageNicknames && interaction.memberPermissions?.has(permission) === true;
}

function onAllowList(interaction: Pick<BaseInteraction, 'user' | 'member'>, rules: PermissionSettings): boolean {
	if (rules.allowedUserIds.includes(interaction.user.id)) return true;
	const member = interaction.member;
	const roles = member && 'cache' in member.roles ? [...member.roles.cache.keys()] : ((member?.roles as string[] | undefined) ?? []);
	return roles.some((role) => rules.allowedRoleIds.includes(role));
}

/**
 * What the member behind an interaction may do, for the engine's admission (see
 * `AdmissionRequest.allowed`): {@link isAllowed} for each permission it asks about.
 */
export function allowedFor(
	interaction: Pick<BaseInteraction, 'user' | 'member' | 'memberPermissions'>,
	rules: PermissionSettings,
): (permission: bigint) => boolean {
	return (permission) => isAllowed(interaction, rules, permission);
}

/**
 * The flags of `permission` this member lacks, for a refusal that names them (a bulk ban needs Ban
 * Members and Manage Guild: one who has Ban Members is told of Manage Guild); all of them when
 * none lacks alone.
 */
export function lackedPermissions(
	interaction: Pick<BaseInteraction, 'user' | 'member' | 'memberPermissions'>,
	rules: PermissionSettings,
	permission: bigint,
): bigint {
	let lacking = 0n;
	for (let rest = permission; rest !== 0n; rest &= rest - 1n) {
		const flag = rest & -rest;
		if (!isAllowed(interaction, rules, flag)) lacking |= flag;
	}
	return lacking === 0n ? permission : lacking;
}

/** The private answer to a member who may not: what they lack (`permission`'s flags). */
export function notAllowedText(what: string, permission: bigint): string {
	const names = permissionNames(permission);
	return `You may not ${what} here: it needs the ${listInWords(names)} permission${names.length > 1 ? 's' : ''}${orAllowed(permission)}.`;
}
