import { escapeMarkdown } from 'discord.js';
import type { MemberRecord } from '../../discord/MemberRecord.js';
import type { SlotValue } from '../../jobs/index.js';

/** One role change as a preview shows it: `@bob gets @Event`; the values are the role's id or `null`. */
export function describeRoleChange(member: MemberRecord, from: SlotValue, to: SlotValue, roleName: (id: string) => string): string {
	const who = `@${escapeMarkdown(member.username)}`;
	return to === null ? `${who} loses @${escapeMarkdown(roleName(from ?? ''))}` : `${who} gets @${escapeMarkdown(roleName(to))}`;
}
