import { escapeMarkdown } from 'discord.js';
import type { MemberRecord } from '../../discord/MemberRecord.js';

/** One kick as a preview shows it: `@raider123 (123456789012345678) is kicked`. */
export function describeKick(member: MemberRecord): string {
	return `@${escapeMarkdown(member.username)} (${member.id}) is kicked`;
}
