import {
	type APIActionRowComponent,
	type APIButtonComponent,
	type APIEmbed,
	ButtonStyle,
	ComponentType,
	escapeMarkdown,
	time,
	TimestampStyles,
} from 'discord.js';
import { previewButtonId } from '../customIds.js';
import type { JobEstimate, NonMemberHandling, Range } from '../../jobs/index.js';
import { formatCount, formatDuration, formatWorkers } from '../../present/index.js';

/** What a preview shows: gathered once when the command runs (see `gatherPreview`). */
export interface PreviewFacts {
	/** What runs: `Renaming to “🎃 {display_name}”`. */
	readonly title: string;
	/** Who it is about: `every member`, `members with @Staff`. */
	readonly scope: string;
	/** For a restore: the job it undoes, who started it and when. */
	readonly undoes?: string | undefined;
	/** The guild's member count, our bots included. */
	readonly guildMembers: number;
	readonly estimate: JobEstimate;
	/** Why there is no estimate, when Discord's counts could not be read; how it was counted, when exactly. */
	readonly countsNote?: string | undefined;
	/**
	 * A standing rule: after its sweep it applies to joiners (and to members who change, when
	 * `changes`), until `until` (Unix ms) or /cancel.
	 */
	readonly keep?: { readonly changes: boolean; readonly until?: number | undefined } | undefined;
	/** Why Discord cannot undo the job, when it cannot (`MassAction.irreversible`): said in so many words. */
	readonly irreversible?: string | undefined;
	/**
	 * The members the job changes, counted exactly, when Start asks for that number to be typed
	 * (see `countExactly`): the estimate is then exact too.
	 */
	readonly typedCount?: number | undefined;
	/** Why the count is typed, when {@link irreversible} does not say it (a ban of more than 100). */
	readonly typedCountWhy?: string | undefined;
	readonly sample: PreviewSample;
	/** The audit-log reason every request of the job will carry. */
	readonly reason: string;
	/** Workers of this process that can take work now. */
	readonly workers: number;
	/** N, the workers the guild is split between, here and in other processes. */
	readonly workerCount: number;
	/** The ids of this process's workers among {@link workerCount}: all of them unless split over processes. */
	readonly heldIds: readonly number[];
	/**
	 * The time this process's changes take at its workers' combined rate (its workers' share of
	 * the guild, when others run elsewhere at the same time); `null` when unknown.
	 */
	readonly durationMs: number | null;
	/** Changes a second, this process's workers together. */
	readonly perSecond: number;
}

/** The first listed members, planned by the job's own planner. */
export interface PreviewSample {
	/** Members of the first page that were planned (0 when none could be listed). */
	readonly planned: number;
	/** `cant`: out of the workers' reach; `aboveRequester`: within it, but ranked at or above the requester. */
	readonly tally: { readonly change: number; readonly done: number; readonly cant: number; readonly aboveRequester: number; readonly skip: number };
	/** The first few planned changes, one line each: `alice: “Alice” → “🎃 Alice”`. */
	readonly changes: readonly string[];
	/** Why there is no sample, or what it leaves out. */
	readonly note?: string | undefined;
	/**
	 * For a job limited to a file of user ids, whose sample is its listed ids looked up rather than
	 * the first members listed: how many were looked up, of how many.
	 */
	readonly listed?:
		| {
				readonly looked: number;
				readonly total: number;
				/** What the job does with those that are not members (see `nonMemberHandling`), and the action's word for a change (`banned`). */
				readonly nonMembers?: { readonly handling: NonMemberHandling; readonly changed: string } | undefined;
		  }
		| undefined;
}

/** Where a preview is: open with its buttons, or closed, saying why nothing (or what) ran. */
export type PreviewStatus =
	| { readonly state: 'open'; readonly previewId: string; readonly expiresAt: number }
	| { readonly state: 'starting' }
	| { readonly state: 'started'; readonly text: string }
	| { readonly state: 'failed'; readonly error: string }
	| { readonly state: 'cancelled' }
	| { readonly state: 'expired' }
	| { readonly state: 'replaced' }
	| { readonly state: 'stopped' };

export interface PreviewMessage {
	content: string;
	embeds: APIEmbed[];
	components: APIActionRowComponent<APIButtonComponent>[];
}

/** Discord's embed limits: a title of 256 characters, a description of 4096. */
const TITLE_LIMIT = 256;
const DESCRIPTION_LIMIT = 4096;
/** The most one sample line may take (a nickname is 32 code points, a role name 100). */
const SAMPLE_LINE_LIMIT = 200;
/** The most any other free-text line (names, errors) may take. */
const LINE_LIMIT = 600;

/** The line a closed preview starts with: what became of it. */
function headline(status: PreviewStatus): string | undefined {
	switch (status.state) {
		case 'open':
			return undefined;
		case 'starting':
			return '⏳ Starting…';
		case 'started':
			return `✅ ${status.text}`;
		case 'failed':
			return `⚠️ Could not start, so nothing ran: ${clip(status.error, LINE_LIMIT)}`;
		case 'cancelled':
			return '✖️ Cancelled: nothing ran and nothing was changed.';
		case 'expired':
			return '⌛ Expired: nobody pressed Start in time, so nothing ran. Run the command again for a fresh preview.';
		case 'replaced':
			return '↪️ Replaced by a newer command: nothing ran from this preview.';
		case 'stopped':
			return '⏹️ massnick stopped before Start was pressed: nothing ran.';
	}
}

/**
 * The preview message: what will run, for whom, with Discord's counts and a sample of real
 * members, the audit-log reason, the workers and the time it takes; with Start and Cancel while
 * it is open. Within Discord's embed limits whatever the names.
 */
export function renderPreview(facts: PreviewFacts, status: PreviewStatus): PreviewMessage {
	const lines: string[] = [];
	const head = headline(status);
	if (head) lines.push(head, '');
	lines.push(clip(`**${escapeMarkdown(facts.title)}** for ${escapeMarkdown(facts.scope)}.`, LINE_LIMIT));
	if (facts.undoes) lines.push(clip(`It undoes ${facts.undoes}.`, LINE_LIMIT));
	if (facts.keep) {
		const until = facts.keep.until === undefined ? 'until `/cancel rule:`' : `until <t:${Math.floor(facts.keep.until / 1000)}:f> (or \`/cancel rule:\`)`;
		lines.push(`📌 **A standing rule**: after this sweep it goes on, for everyone who joins${facts.keep.changes ? ' or changes' : ''}, ${until}.`);
	}
	if (facts.irreversible) lines.push(clip(`⚠️ **${escapeMarkdown(facts.irreversible)}.** /restore will not bring anyone back.`, LINE_LIMIT));
	lines.push(...figures(facts));
	lines.push(clip(`Audit-log reason: “${escapeMarkdown(facts.reason)}”`, 2 * LINE_LIMIT));
	lines.push(workersLine(facts));
	if (status.state === 'open') {
		const start =
			facts.typedCount === undefined
				? 'Nothing changes until you press **Start**.'
				: `${facts.typedCountWhy ? `${escapeMarkdown(facts.typedCountWhy)}. ` : ''}Nothing changes until you press **Start** and type the number of members it will change, **${formatCount(facts.typedCount)}**, in the box it opens.`;
		lines.push('', `${start} This preview expires ${time(Math.ceil(status.expiresAt / 1000), TimestampStyles.RelativeTime)}.`);
	}
	const description = fitLines(lines, sampleLines(facts.sample));
	const prefix = status.state === 'open' ? 'Preview' : 'Preview (closed)';
	return {
		content: '',
		embeds: [{ title: clip(`${prefix} · ${facts.title}`, TITLE_LIMIT), description }],
		components: status.state === 'open' ? [previewButtons(status.previewId, facts.irreversible !== undefined)] : [],
	};
}

/** Start and Cancel, in one row; Start is red for a job that cannot be undone. */
export function previewButtons(previewId: string, irreversible = false): APIActionRowComponent<APIButtonComponent> {
	return {
		type: ComponentType.ActionRow,
		components: [
			{
				type: ComponentType.Button,
				style: irreversible ? ButtonStyle.Danger : ButtonStyle.Success,
				label: 'Start',
				custom_id: previewButtonId(previewId, 'start'),
			},
			{ type: ComponentType.Button, style: ButtonStyle.Secondary, label: 'Cancel', custom_id: previewButtonId(previewId, 'cancel') },
		],
	};
}

/**
 * Who does the work and how long it takes. A process holding only some of the workers changes
 * only their members, its share of the figures above, while the others' run elsewhere.
 */
function workersLine(facts: PreviewFacts): string {
	const time = facts.durationMs === null ? 'the time is known once it runs' : `about **${formatDuration(facts.durationMs)}**`;
	const rate = `about ${formatCount(facts.perSecond)} changes a second together`;
	if (facts.heldIds.length === facts.workerCount) return `${formatCount(facts.workers)} workers at ${rate}: ${time}.`;
	const share = Math.round((facts.heldIds.length / facts.workerCount) * 100);
	return `${capitalize(formatWorkers(facts.heldIds, facts.workerCount))} here, at ${rate}; the others run elsewhere. Here only these workers' members change, about ${share}% of those counted above: ${time}.`;
}

function figures(facts: PreviewFacts): string[] {
	const { inScope, change, done, cant, aboveRequester } = facts.estimate;
	const lines = [`Members: ${formatCount(facts.guildMembers)} in the server${inScope ? ` · ${formatRange(inScope)} in scope (our bots left out)` : ''}.`];
	const parts = [`will change **${change ? formatRange(change) : 'as many as need it (counted as it runs)'}**`];
	if (done) parts.push(`already done ${formatRange(done)}`);
	if (cant) parts.push(`can't ${formatRange(cant)}${cant.atMost > 0 ? " (the owner, and members with a role at or above the workers' highest)" : ''}`);
	if (aboveRequester && aboveRequester.atMost > 0)
		parts.push(`out of your reach ${formatRange(aboveRequester)} (ranked at or above you: left alone, as Discord would refuse you by hand)`);
	for (const group of facts.estimate.leftAlone ?? []) {
		if (group.count.atMost > 0) parts.push(`${escapeMarkdown(group.who)} ${formatRange(group.count)} (${escapeMarkdown(group.why)})`);
	}
	lines.push(`${capitalize(parts.join(' · '))}.`);
	if ((inScope || cant) && facts.typedCount === undefined)
		lines.push(
			'Counts come from Discord without listing anyone; a member with several roles counts under each, hence the ranges. The job counts exactly as it runs.',
		);
	if (facts.countsNote) lines.push(clip(escapeMarkdown(facts.countsNote), LINE_LIMIT));
	return lines;
}

function sampleLines(sample: PreviewSample): string[] {
	const lines: string[] = [];
	const { change, done, cant, aboveRequester, skip } = sample.tally;
	const yours = aboveRequester > 0 ? `, ${formatCount(aboveRequester)} out of your reach` : '';
	const plans = `${formatCount(change)} to change, ${formatCount(done)} already done, ${formatCount(cant)} can't${yours}, ${formatCount(skip)} left alone`;
	if (sample.listed) {
		const { looked, total } = sample.listed;
		const which =
			looked === total ? `The ${formatCount(total)} listed user ids` : `The first ${formatCount(looked)} of the ${formatCount(total)} listed user ids`;
		const strangers = looked - sample.planned;
		const members = `${formatCount(sample.planned)} ${sample.planned === 1 ? 'is a member' : 'are members'} of the server`;
		const reached = sample.listed.nonMembers?.handling.reached === true && strangers > 0;
		const others = reached
			? ''
			: `, ${formatCount(strangers)} ${strangers === 1 ? 'is not' : 'are not'} (${nothingSent(strangers, sample.listed.nonMembers?.handling)})`;
		lines.push(`${which}, looked up: ${members}${others}${sample.planned > 0 ? `. Of the members: ${plans}` : ''}.`);
		for (const line of sample.changes) lines.push(`• ${clip(line, SAMPLE_LINE_LIMIT)}`);
		if (reached) lines.push(nonMembersLine(strangers, looked < total, sample.listed.nonMembers!.changed));
	} else if (sample.planned > 0) {
		lines.push(`The first ${formatCount(sample.planned)} members listed: ${plans}.`);
		for (const change of sample.changes) lines.push(`• ${clip(change, SAMPLE_LINE_LIMIT)}`);
	}
	if (sample.note) lines.push(clip(sample.note, LINE_LIMIT));
	return lines;
}

/** Why nothing is sent for listed ids that are not members: the action does not reach them, or a filter only a member passes. */
function nothingSent(count: number, handling: NonMemberHandling | undefined): string {
	const sent = `nothing is sent for ${count === 1 ? 'it' : 'them'}`;
	const filters = handling?.memberOnly ?? [];
	if (filters.length === 0) return sent;
	const named = filters.length === 1 ? filters[0] : `${filters.slice(0, -1).join(', ')} and ${filters[filters.length - 1]}`;
	return `${sent}: only a member can be judged by ${named}`;
}

/**
 * The listed users who are not members an action reaches, counted apart: `**48 users who are not
 * members will be banned**`, with Discord's limit on them, which the job stops at and says so.
 */
function nonMembersLine(count: number, partial: boolean, changed: string): string {
	const users = `${formatCount(count)} ${count === 1 ? 'user who is not a member' : 'users who are not members'}`;
	return `${partial ? 'Among those looked up, ' : ''}**${users} will be ${changed}** too (they left, or never joined; any ${changed} already stay as they are, and our own bots, the owner and you never are). Discord allows a server only so many of these for a while and publishes no figure: past it, the job stops on them and says so.`;
}

/** The lines, with as much of the sample as fits 4096 characters inserted before the reason. */
function fitLines(lines: string[], sample: string[]): string {
	const at = lines.findIndex((line) => line.startsWith('Audit-log reason:'));
	let room = DESCRIPTION_LIMIT - lines.join('\n').length;
	const kept: string[] = [];
	for (const line of sample) {
		if (line.length + 1 > room) break;
		kept.push(line);
		room -= line.length + 1;
	}
	return clip([...lines.slice(0, at), ...kept, ...lines.slice(at)].join('\n'), DESCRIPTION_LIMIT);
}

/** `1,234`; `up to 1,234`; `1,200–1,234`. */
export function formatRange(range: Range): string {
	if (range.atLeast === range.atMost) return formatCount(range.atMost);
	if (range.atLeast <= 0) return `up to ${formatCount(range.atMost)}`;
	return `${formatCount(range.atLeast)}–${formatCount(range.atMost)}`;
}

function capitalize(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

function clip(text: string, limit: number): string {
	return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
