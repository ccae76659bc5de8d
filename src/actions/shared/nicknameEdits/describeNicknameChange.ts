import { escapeMarkdown } from 'discord.js';
import type { MemberRecord } from '../../../discord/MemberRecord.js';
import type { SlotValue } from '../../../jobs/index.js';

/** One nickname change as a preview shows it: `@alice: “Alice” → “🎃 Alice”`. */
export function describeNicknameChange(member: MemberRecord, from: SlotValue, to: SlotValue): string {
	return `@${escapeMarkdown(member.username)}: ${nick(from)} → ${nick(to)}`;
}

function nick(value: SlotValue): string {
	return value === null ? '(no nickname)' : `“${escapeMarkdown(value)}”`;
}
