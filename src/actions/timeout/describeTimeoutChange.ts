import { escapeMarkdown, TimestampStyles, time } from 'discord.js';
import type { MemberRecord } from '../../discord/MemberRecord.js';
import type { SlotValue } from '../../jobs/index.js';

/**
 * One timeout as a preview shows it, the end in each reader's own time zone:
 * `@alice: timed out until <t:1777658400:f>`, `@bob: timed out until … (was until …)`, and for
 * an undo `@carol: timeout lifted`.
 */
export function describeTimeoutChange(member: MemberRecord, from: SlotValue, to: SlotValue): string {
	const who = `@${escapeMarkdown(member.username)}`;
	if (to === null) return `${who}: timeout lifted`;
	return `${who}: timed out until ${end(to)}${from === null ? '' : ` (was until ${end(from)})`}`;
}

function end(value: string): string {
	return time(Math.floor(Date.parse(value) / 1000), TimestampStyles.ShortDateTime);
}
