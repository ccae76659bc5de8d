import { escapeMarkdown } from 'discord.js';
import { NICKNAME } from '../actions/nickname/NicknameAction.js';
import { ROLE_ACTION_TYPES } from '../actions/role/RoleAction.js';
import type { MemberRecord } from '../discord/MemberRecord.js';
import type { SlotValue } from '../jobs/Plan.js';

/** A role's name by id, from the boss's cache. */
export type RoleNames = (roleId: string) => string;

/** How one planned change of an action reads in a preview. */
type Describer = (member: MemberRecord, from: SlotValue, to: SlotValue, roleNames: RoleNames) => string;

const who = (member: MemberRecord): string => `@${escapeMarkdown(member.username)}`;

const nickname: Describer = (member, from, to) => `${who(member)}: ${nick(from)} → ${nick(to)}`;

/** A role action's values are the role's id while the member has it, `null` when not. */
const role: Describer = (member, from, to, roleNames) =>
	to === null ? `${who(member)} loses @${escapeMarkdown(roleNames(from ?? ''))}` : `${who(member)} gets @${escapeMarkdown(roleNames(to))}`;

/** Any other action: its values as they are. */
const plain: Describer = (member, from, to) => `${who(member)}: ${quoted(from)} → ${quoted(to)}`;

/**
 * The words for each action's values, by the action's type (the engine's actions never describe
 * themselves to people beyond their `words`; this is the boss's presentation of their values).
 */
const describers: Readonly<Record<string, Describer>> = {
	[NICKNAME]: nickname,
	'nickname-clear': nickname,
	[ROLE_ACTION_TYPES.add]: role,
	[ROLE_ACTION_TYPES.remove]: role,
};

/** One sample line: `@alice: “Alice” → “🎃 Alice”`, `@bob gets @Event`. */
export function describeChange(actionType: string, member: MemberRecord, from: SlotValue, to: SlotValue, roleNames: RoleNames): string {
	return (describers[actionType] ?? plain)(member, from, to, roleNames);
}

function nick(value: SlotValue): string {
	return value === null ? '(no nickname)' : quoted(value);
}

function quoted(value: SlotValue): string {
	return value === null ? '(none)' : `“${escapeMarkdown(value)}”`;
}
